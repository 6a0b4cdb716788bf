DROP TRIGGER IF EXISTS agreement_vote_insert ON judge_vote;
CREATE TRIGGER agreement_vote_insert AFTER INSERT ON judge_vote REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
