CREATE OR REPLACE FUNCTION result_tables() RETURNS json LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    RETURN json_build_object(
      'conditions', (SELECT coalesce(json_agg(x), '[]') FROM (
        SELECT b.name AS benchmark, m.name AS model, r.network, r.prompt::text AS prompt,
          sum(r.trajectories)::int AS trajectories, sum(r.judged)::int AS judged, sum(r.attempts)::int AS attempts,
          sum(r.successes)::int AS successes, sum(r.resolved_successes)::int AS resolved_successes,
          sum(r.unparseable)::int AS unparseable, sum(r.unparseable_trajectories)::int AS unparseable_trajectories
        FROM result_tally r JOIN benchmark b ON b.id = r."benchmarkId" JOIN agent_model m ON m.id = r."modelId"
        GROUP BY b.name, m.name, r.network, r.prompt HAVING sum(r.trajectories) > 0) x),
      'categories', (SELECT coalesce(json_agg(x ORDER BY x.rank, x.category), '[]') FROM (
        SELECT b.name AS benchmark, m.name AS model, r.network, r.prompt::text AS prompt, r.category,
          coalesce((SELECT min(c.rank) FROM category c WHERE c.key = r.category), 1000) AS rank,
          coalesce((SELECT c.name FROM category c WHERE c.key = r.category ORDER BY c."createdAt" DESC LIMIT 1),
            r.category) AS name,
          sum(r.judged)::int AS judged, sum(r.attempts)::int AS attempts, sum(r.successes)::int AS successes
        FROM result_category_tally r JOIN benchmark b ON b.id = r."benchmarkId" JOIN agent_model m ON m.id = r."modelId"
        GROUP BY b.name, m.name, r.network, r.prompt, r.category HAVING sum(r.judged) > 0) x),
      'tasks', (SELECT coalesce(json_agg(x ORDER BY x.n, x.c, x.e), '[]') FROM (
        WITH d AS (
          SELECT "benchmarkId", "modelId", network, prompt, "taskId", sum(trajectories) AS t, sum(n) AS n,
            sum(c) AS c, sum(e) AS e
          FROM result_task_tally WHERE NOT base GROUP BY 1, 2, 3, 4, 5),
        r AS (
          SELECT s."benchmarkId", s."modelId", s.network, s.prompt, s.n, s.c, s.e, s.tasks AS k
          FROM result_task_shape s
          UNION ALL
          SELECT b."benchmarkId", b."modelId", b.network, b.prompt, b.n, b.c, b.e, -1
          FROM d JOIN result_task_tally b ON b.base AND b."benchmarkId" = d."benchmarkId"
            AND b."modelId" = d."modelId" AND b.network = d.network AND b.prompt = d.prompt AND b."taskId" = d."taskId"
          WHERE b.trajectories > 0
          UNION ALL
          SELECT d."benchmarkId", d."modelId", d.network, d.prompt, coalesce(b.n, 0) + d.n,
            coalesce(b.c, 0) + d.c, coalesce(b.e, 0) + d.e, 1
          FROM d LEFT JOIN result_task_tally b ON b.base AND b."benchmarkId" = d."benchmarkId"
            AND b."modelId" = d."modelId" AND b.network = d.network AND b.prompt = d.prompt AND b."taskId" = d."taskId"
          WHERE coalesce(b.trajectories, 0) + d.t > 0)
        SELECT b.name AS benchmark, m.name AS model, r.network, r.prompt::text AS prompt, r.n::int AS n,
          r.c::int AS c, r.e::int AS e, sum(r.k)::int AS tasks
        FROM r JOIN benchmark b ON b.id = r."benchmarkId" JOIN agent_model m ON m.id = r."modelId"
        GROUP BY b.name, m.name, r.network, r.prompt, r.n, r.c, r.e HAVING sum(r.k) > 0) x),
      'judges', (SELECT coalesce(json_agg(x ORDER BY x.judge), '[]') FROM (
        SELECT b.name AS benchmark, m.name AS model, r.network, r.prompt::text AS prompt, j.name AS judge,
          sum(r.votes)::int AS votes, sum(r.attempts)::int AS attempts, sum(r.successes)::int AS successes,
          sum(r.unparseable)::int AS unparseable
        FROM result_judge_tally r JOIN benchmark b ON b.id = r."benchmarkId" JOIN agent_model m ON m.id = r."modelId"
          JOIN judge j ON j.id = r."judgeId"
        GROUP BY b.name, m.name, r.network, r.prompt, j.name HAVING sum(r.votes) > 0) x),
      'deltas', (SELECT count(*) FROM result_tally WHERE NOT base)
        + (SELECT count(*) FROM result_category_tally WHERE NOT base)
        + (SELECT count(*) FROM result_task_tally WHERE NOT base)
        + (SELECT count(*) FROM result_judge_tally WHERE NOT base));
END
$fn$;
