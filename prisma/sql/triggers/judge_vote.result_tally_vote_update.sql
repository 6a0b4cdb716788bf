DROP TRIGGER IF EXISTS result_tally_vote_update ON judge_vote;
CREATE TRIGGER result_tally_vote_update AFTER UPDATE ON judge_vote REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_vote();
