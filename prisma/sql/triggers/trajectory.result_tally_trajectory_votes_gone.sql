DROP TRIGGER IF EXISTS result_tally_trajectory_votes_gone ON trajectory;
CREATE TRIGGER result_tally_trajectory_votes_gone BEFORE DELETE ON trajectory FOR EACH ROW EXECUTE FUNCTION result_tally_trajectory_votes_gone();
