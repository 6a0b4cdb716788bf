DROP TRIGGER IF EXISTS agreement_item_update ON study_item;
CREATE TRIGGER agreement_item_update AFTER UPDATE ON study_item REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
