-- Importing a file again changes nothing (issue 61): each trajectory keeps the digest of what its
-- import wrote, and one brought again unchanged is not written (its turns, its time, its place on
-- the rules' scan and the judges' requests planned over it all stay as they were). An import counts
-- the trajectories it found unchanged. Trajectories imported before carry no digest: the next
-- import of each writes it once.
ALTER TABLE "trajectory" ADD COLUMN "contentDigest" TEXT;
ALTER TABLE "import" ADD COLUMN "unchanged" INTEGER NOT NULL DEFAULT 0;
