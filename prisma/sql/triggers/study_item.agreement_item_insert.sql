DROP TRIGGER IF EXISTS agreement_item_insert ON study_item;
CREATE TRIGGER agreement_item_insert AFTER INSERT ON study_item REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
