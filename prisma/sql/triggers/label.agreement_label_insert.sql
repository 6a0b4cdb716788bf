DROP TRIGGER IF EXISTS agreement_label_insert ON label;
CREATE TRIGGER agreement_label_insert AFTER INSERT ON label REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
