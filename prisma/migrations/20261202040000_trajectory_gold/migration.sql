-- The overall verdict of the gold label in force, kept on the trajectory (like the panel's) so the
-- list can filter by it and the agreement's gold cells link to exactly their trajectories.
ALTER TABLE "trajectory" ADD COLUMN "goldOverall" "Verdict";
UPDATE "trajectory" t SET "goldOverall" = g.overall
  FROM (SELECT DISTINCT ON ("trajectoryId") "trajectoryId", overall FROM "gold_label"
         ORDER BY "trajectoryId", "createdAt" DESC, id DESC) g
 WHERE g."trajectoryId" = t.id;
