DROP TRIGGER IF EXISTS agreement_trajectory_delete ON trajectory;
CREATE TRIGGER agreement_trajectory_delete AFTER DELETE ON trajectory REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_trajectory();
