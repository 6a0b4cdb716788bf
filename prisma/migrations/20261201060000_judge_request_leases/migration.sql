-- When a request was claimed: a claim older than its lease is taken over by another worker, and a
-- judge's requests in the last minute are counted against its requests-per-minute limit.
ALTER TABLE "judge_request" ADD COLUMN "askedAt" TIMESTAMP(3);
CREATE INDEX "judge_request_judgeId_askedAt_idx" ON "judge_request"("judgeId", "askedAt");
