DROP TRIGGER IF EXISTS agreement_vote_delete ON judge_vote;
CREATE TRIGGER agreement_vote_delete AFTER DELETE ON judge_vote REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
