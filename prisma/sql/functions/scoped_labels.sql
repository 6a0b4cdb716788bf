CREATE OR REPLACE FUNCTION scoped_labels(ids integer[]) RETURNS TABLE("trajectoryId" integer, "annotatorId" text, revised boolean, scope integer, ff boolean, human "Verdict") LANGUAGE sql STABLE AS $fn$
  SELECT l."trajectoryId", l."annotatorId", l."revisedAfterUnblinding", s.scope, f.ff,
    CASE WHEN f.ff AND l."revisedAfterUnblinding" THEN coalesce(l."blindOverall", l.overall) ELSE l.overall END
  FROM label l
  CROSS JOIN LATERAL (
    SELECT 0 AS scope
    UNION ALL
    SELECT l."studyId" WHERE EXISTS (
      SELECT 1 FROM study_item i WHERE i."studyId" = l."studyId" AND i."trajectoryId" = l."trajectoryId")) s
  CROSS JOIN (VALUES (false), (true)) f(ff)
  WHERE ids IS NULL OR l."trajectoryId" = ANY(ids)
$fn$;
