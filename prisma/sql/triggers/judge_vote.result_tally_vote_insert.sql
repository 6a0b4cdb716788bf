DROP TRIGGER IF EXISTS result_tally_vote_insert ON judge_vote;
CREATE TRIGGER result_tally_vote_insert AFTER INSERT ON judge_vote REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_vote();
