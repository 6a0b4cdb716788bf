CREATE OR REPLACE FUNCTION result_tally_trajectory_sql(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($q$
WITH s AS (%1$s),
  c AS (
    INSERT INTO result_tally ("benchmarkId", "modelId", network, prompt, trajectories, judged, attempts, successes,
      resolved_successes, unparseable, unparseable_trajectories)
    SELECT * FROM (
      SELECT "benchmarkId", "modelId", network, prompt,
        sum(sign)::int AS t,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IS NOT NULL), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = 'SUCCESSFUL'), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = 'SUCCESSFUL' AND resolved), 0)::int,
        coalesce(sum(sign * "unparseableVotes"), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "unparseableVotes" > 0), 0)::int
      FROM s GROUP BY 1, 2, 3, 4) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, 0, 0, 0, 0, 0, 0, 0)
    RETURNING 1),
  k AS (
    INSERT INTO result_category_tally ("benchmarkId", "modelId", network, prompt, category, judged, attempts, successes)
    SELECT * FROM (
      SELECT s."benchmarkId", s."modelId", s.network, s.prompt, e.key, sum(s.sign)::int AS judged,
        coalesce(sum(s.sign) FILTER (WHERE e.value IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
        coalesce(sum(s.sign) FILTER (WHERE e.value = 'SUCCESSFUL'), 0)::int
      FROM s, jsonb_each_text(s."panelCategories") e GROUP BY 1, 2, 3, 4, 5) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d.key, 0, 0, 0)
    RETURNING 1)
INSERT INTO result_task_tally ("benchmarkId", "modelId", network, prompt, "taskId", trajectories, n, c, e)
SELECT * FROM (
  SELECT "benchmarkId", "modelId", network, prompt, "taskId", sum(sign)::int,
    coalesce(sum(sign) FILTER (WHERE resolved IS NOT NULL), 0)::int,
    coalesce(sum(sign) FILTER (WHERE resolved), 0)::int,
    coalesce(sum(sign) FILTER (WHERE resolved AND "panelVerdict" = 'SUCCESSFUL'), 0)::int
  FROM s GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."taskId", 0, 0, 0, 0)
$q$, src)
$fn$;
