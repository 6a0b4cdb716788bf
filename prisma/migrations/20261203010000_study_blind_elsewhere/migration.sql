-- A blind study's setting: while a labeller's label on an item is pending, the trajectory is
-- withheld from them everywhere else in the app (timeline, list, compare, review, label lists).
-- On by default; it matters only for labellers who can read trajectories (researchers).
ALTER TABLE "study" ADD COLUMN "blindElsewhere" BOOLEAN NOT NULL DEFAULT true;
