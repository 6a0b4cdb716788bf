CREATE OR REPLACE FUNCTION agreement_shares(ids integer[]) RETURNS TABLE("trajectoryId" integer, scope integer, first_forms boolean, key agreement_key, n integer) LANGUAGE sql STABLE AS $fn$
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
$fn$;
