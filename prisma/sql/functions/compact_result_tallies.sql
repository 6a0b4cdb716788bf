CREATE OR REPLACE FUNCTION compact_result_tallies() RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM pg_advisory_xact_lock(7431);
    WITH gone AS (DELETE FROM result_tally WHERE NOT base RETURNING *)
    INSERT INTO result_tally AS r ("benchmarkId", "modelId", network, prompt, base, trajectories, judged, attempts,
      successes, resolved_successes, unparseable, unparseable_trajectories)
    SELECT "benchmarkId", "modelId", network, prompt, true, sum(trajectories), sum(judged), sum(attempts),
      sum(successes), sum(resolved_successes), sum(unparseable), sum(unparseable_trajectories)
    FROM gone GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("benchmarkId", "modelId", network, prompt) WHERE base DO UPDATE SET
      trajectories = r.trajectories + excluded.trajectories, judged = r.judged + excluded.judged,
      attempts = r.attempts + excluded.attempts, successes = r.successes + excluded.successes,
      resolved_successes = r.resolved_successes + excluded.resolved_successes,
      unparseable = r.unparseable + excluded.unparseable,
      unparseable_trajectories = r.unparseable_trajectories + excluded.unparseable_trajectories;
    DELETE FROM result_tally WHERE base AND trajectories = 0;

    WITH gone AS (DELETE FROM result_category_tally WHERE NOT base RETURNING *)
    INSERT INTO result_category_tally AS r ("benchmarkId", "modelId", network, prompt, category, base, judged,
      attempts, successes)
    SELECT "benchmarkId", "modelId", network, prompt, category, true, sum(judged), sum(attempts), sum(successes)
    FROM gone GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("benchmarkId", "modelId", network, prompt, category) WHERE base DO UPDATE SET
      judged = r.judged + excluded.judged, attempts = r.attempts + excluded.attempts,
      successes = r.successes + excluded.successes;
    DELETE FROM result_category_tally WHERE base AND judged = 0;

    -- A task's base row moves from one shape to another: the shapes move with it.
    WITH gone AS (DELETE FROM result_task_tally WHERE NOT base RETURNING *),
      d AS (
        SELECT "benchmarkId", "modelId", network, prompt, "taskId", sum(trajectories)::int AS trajectories,
          sum(n)::int AS n, sum(c)::int AS c, sum(e)::int AS e
        FROM gone GROUP BY 1, 2, 3, 4, 5),
      before AS (
        SELECT b.* FROM d JOIN result_task_tally b ON b.base AND b."benchmarkId" = d."benchmarkId"
          AND b."modelId" = d."modelId" AND b.network = d.network AND b.prompt = d.prompt AND b."taskId" = d."taskId"),
      after AS (
        INSERT INTO result_task_tally AS r ("benchmarkId", "modelId", network, prompt, "taskId", base, trajectories,
          n, c, e)
        SELECT "benchmarkId", "modelId", network, prompt, "taskId", true, trajectories, n, c, e
        FROM d ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT ("benchmarkId", "modelId", network, prompt, "taskId") WHERE base DO UPDATE SET
          trajectories = r.trajectories + excluded.trajectories, n = r.n + excluded.n, c = r.c + excluded.c,
          e = r.e + excluded.e
        RETURNING r.*),
      moves AS (
        SELECT "benchmarkId", "modelId", network, prompt, n, c, e, -1 AS k FROM before WHERE trajectories > 0
        UNION ALL
        SELECT "benchmarkId", "modelId", network, prompt, n, c, e, 1 FROM after WHERE trajectories > 0)
    INSERT INTO result_task_shape AS s ("benchmarkId", "modelId", network, prompt, n, c, e, tasks)
    SELECT "benchmarkId", "modelId", network, prompt, n, c, e, sum(k) FROM moves
    GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(k) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ("benchmarkId", "modelId", network, prompt, n, c, e) DO UPDATE SET tasks = s.tasks + excluded.tasks;
    -- (A task's base row left at zero stays: it counts nowhere, and finding it would read them all.)
    DELETE FROM result_task_shape WHERE tasks = 0;

    WITH gone AS (DELETE FROM result_judge_tally WHERE NOT base RETURNING *)
    INSERT INTO result_judge_tally AS r ("benchmarkId", "modelId", network, prompt, "judgeId", base, votes,
      attempts, successes, unparseable)
    SELECT "benchmarkId", "modelId", network, prompt, "judgeId", true, sum(votes), sum(attempts), sum(successes),
      sum(unparseable)
    FROM gone GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("benchmarkId", "modelId", network, prompt, "judgeId") WHERE base DO UPDATE SET
      votes = r.votes + excluded.votes, attempts = r.attempts + excluded.attempts,
      successes = r.successes + excluded.successes, unparseable = r.unparseable + excluded.unparseable;
    DELETE FROM result_judge_tally WHERE base AND votes = 0;
END
$fn$;
