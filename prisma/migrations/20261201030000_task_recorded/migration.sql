-- Whether a trajectory's task has a record (its evidence was looked for): "no evidence" means
-- nothing was found only where something was looked for.
ALTER TABLE "trajectory" ADD COLUMN "taskRecorded" BOOLEAN NOT NULL DEFAULT false;
