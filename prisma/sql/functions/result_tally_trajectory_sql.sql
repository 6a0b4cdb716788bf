CREATE OR REPLACE FUNCTION result_tally_trajectory_sql(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($q$
WITH s AS (%1$s),
  c AS (
    INSERT INTO result_tally ("benchmarkId", "modelId", network, prompt, trajectories, judged, attempts, successes,
      resolved_successes, unparseable, unparseable_trajectories, upstream_a, upstream_s, local_git_a, local_git_s,
      memory_a, memory_s, other_a, other_s)
    SELECT * FROM (
      SELECT "benchmarkId", "modelId", network, prompt,
        sum(sign)::int AS t,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IS NOT NULL), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = 'SUCCESSFUL'), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = 'SUCCESSFUL' AND resolved), 0)::int,
        coalesce(sum(sign * "unparseableVotes"), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "unparseableVotes" > 0), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelUpstream" IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelUpstream" = 'SUCCESSFUL'), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelLocalGit" IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelLocalGit" = 'SUCCESSFUL'), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelMemory" IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelMemory" = 'SUCCESSFUL'), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelOther" IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelOther" = 'SUCCESSFUL'), 0)::int
      FROM s GROUP BY 1, 2, 3, 4) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0)
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
