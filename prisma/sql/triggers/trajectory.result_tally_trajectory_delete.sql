DROP TRIGGER IF EXISTS result_tally_trajectory_delete ON trajectory;
CREATE TRIGGER result_tally_trajectory_delete AFTER DELETE ON trajectory REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_trajectory();
