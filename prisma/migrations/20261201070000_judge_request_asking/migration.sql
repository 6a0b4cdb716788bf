-- A judge's live claims, counted at every claim: a small partial index instead of its whole history.
CREATE INDEX "judge_request_asking_idx" ON "judge_request"("judgeId") WHERE status = 'ASKING';
