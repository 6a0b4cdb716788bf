-- Which labels count in which scope, said once (issue 31's review): the agreement's tallies
-- (agreement_shares) and the reads of the labels themselves (lib/data/agreement.ts: the gold table,
-- the cells' lists) both select from scoped_labels.
--
-- Each label of trajectories `ids` (every trajectory when null), once in scope 0 (all labels) and
-- once more in its study's scope when its trajectory is one of the study's items; each of those in
-- both forms: as last given, and first forms (a label revised after unblinding gives the verdict it
-- was given blind).
CREATE FUNCTION scoped_labels(ids integer[])
RETURNS TABLE ("trajectoryId" integer, "annotatorId" text, revised boolean, scope integer, ff boolean,
  human "Verdict")
LANGUAGE sql STABLE AS $$
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
$$;

-- The shares of trajectories `ids`, as before, from scoped_labels.
CREATE OR REPLACE FUNCTION agreement_shares(ids integer[])
RETURNS TABLE ("trajectoryId" integer, scope integer, first_forms boolean, key agreement_key, n integer)
LANGUAGE sql STABLE AS $$
WITH l AS (SELECT * FROM scoped_labels(ids)),
j AS (
  SELECT l.*, t."panelVerdict" AS panel, t.network, t.prompt, t."benchmarkId", t."modelId"
  FROM l JOIN trajectory t ON t.id = l."trajectoryId" WHERE t."panelVerdict" IS NOT NULL)
SELECT "trajectoryId", scope, ff,
  ROW('l', "benchmarkId", "modelId", network, prompt, human, panel, revised, NULL, NULL, NULL, NULL, NULL,
    NULL)::agreement_key,
  count(*)::int
FROM j GROUP BY "trajectoryId", scope, ff, "benchmarkId", "modelId", network, prompt, human, panel, revised
UNION ALL
SELECT j."trajectoryId", scope, ff,
  ROW('j', NULL, NULL, NULL, NULL, human, NULL, NULL, v."judgeId", v.overall, NULL, NULL, NULL, NULL)::agreement_key,
  count(*)::int
FROM j JOIN judge_vote v ON v."trajectoryId" = j."trajectoryId" AND v.counted
GROUP BY j."trajectoryId", scope, ff, human, v."judgeId", v.overall
UNION ALL
SELECT "trajectoryId", scope, ff,
  ROW('u', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, count(*) FILTER (WHERE human = 'NOT_ATTEMPTED'),
    count(*) FILTER (WHERE human = 'ATTEMPTED'), count(*) FILTER (WHERE human = 'SUCCESSFUL'), NULL)::agreement_key,
  1
FROM l GROUP BY "trajectoryId", scope, ff HAVING count(*) >= 2
UNION ALL
SELECT "trajectoryId", scope, ff,
  ROW('a', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "annotatorId")::agreement_key,
  count(*)::int
FROM l GROUP BY "trajectoryId", scope, ff, "annotatorId"
$$;
