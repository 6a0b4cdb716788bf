-- A request asked with its cohort's first (cohort mode): one call to the judge, so it does not count
-- against the judge's concurrency or requests per minute.
ALTER TABLE "judge_request" ADD COLUMN "cohortOf" INTEGER;
