DROP TRIGGER IF EXISTS agreement_label_delete ON label;
CREATE TRIGGER agreement_label_delete AFTER DELETE ON label REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
