DROP TRIGGER IF EXISTS result_tally_trajectory_update ON trajectory;
CREATE TRIGGER result_tally_trajectory_update AFTER UPDATE ON trajectory REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_trajectory();
