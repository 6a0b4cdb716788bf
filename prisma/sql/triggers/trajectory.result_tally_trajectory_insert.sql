DROP TRIGGER IF EXISTS result_tally_trajectory_insert ON trajectory;
CREATE TRIGGER result_tally_trajectory_insert AFTER INSERT ON trajectory REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_trajectory();
