DROP TRIGGER IF EXISTS result_tally_vote_delete ON judge_vote;
CREATE TRIGGER result_tally_vote_delete AFTER DELETE ON judge_vote REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_vote();
