DROP TRIGGER IF EXISTS agreement_trajectory_update ON trajectory;
CREATE TRIGGER agreement_trajectory_update AFTER UPDATE ON trajectory REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_trajectory();
