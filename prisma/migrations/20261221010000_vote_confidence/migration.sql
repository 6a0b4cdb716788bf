-- A vote's confidence by category (the judge's probability of an attempt, 0 to 1); null when it gave none.
ALTER TABLE "judge_vote" ADD COLUMN "confidence" JSONB;
