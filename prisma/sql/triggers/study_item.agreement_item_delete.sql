DROP TRIGGER IF EXISTS agreement_item_delete ON study_item;
CREATE TRIGGER agreement_item_delete AFTER DELETE ON study_item REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
