DROP TRIGGER IF EXISTS agreement_vote_update ON judge_vote;
CREATE TRIGGER agreement_vote_update AFTER UPDATE ON judge_vote REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
