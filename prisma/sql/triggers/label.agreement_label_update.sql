DROP TRIGGER IF EXISTS agreement_label_update ON label;
CREATE TRIGGER agreement_label_update AFTER UPDATE ON label REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
