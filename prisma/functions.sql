-- The app's database functions as they stand after every migration (prisma/migrations defines them).
-- Written by `npm run db:functions`; lib/data/db-functions.int.test.ts checks it. Do not edit by hand.

-- agreement_counts(in_scope integer, in_first_forms boolean)
CREATE OR REPLACE FUNCTION agreement_counts(in_scope integer, in_first_forms boolean) RETURNS json LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    RETURN (
      WITH k AS (
        SELECT (key).*, sum(n)::int AS count
        FROM (SELECT key, n FROM agreement_tally WHERE agreement_kept() AND scope = in_scope
                AND first_forms = in_first_forms
              UNION ALL
              SELECT key, n FROM agreement_shares_in(in_scope, in_first_forms) WHERE NOT agreement_kept()) t
        GROUP BY key HAVING sum(n) <> 0)
      SELECT json_build_object(
        'labels', (SELECT coalesce(json_agg(x), '[]') FROM (
          SELECT b.name AS benchmark, m.name AS model, k.network, k.prompt::text AS prompt, k.human, k.panel,
            k.revised, k.count
          FROM k JOIN benchmark b ON b.id = k."benchmarkId" JOIN agent_model m ON m.id = k."modelId"
          WHERE k.part = 'l') x),
        'judges', (SELECT coalesce(json_agg(x), '[]') FROM (
          SELECT jd.name AS judge, k.human, k.verdict, k.count
          FROM k JOIN judge jd ON jd.id = k."judgeId" WHERE k.part = 'j') x),
        'units', (SELECT coalesce(json_agg(x), '[]') FROM (
          SELECT k.not_attempted, k.attempted, k.successful, k.count FROM k WHERE k.part = 'u') x),
        'annotators', (SELECT coalesce(json_agg(u.handle ORDER BY u.handle), '[]')
          FROM k JOIN "user" u ON u.id = k."annotatorId" WHERE k.part = 'a'),
        'deltas', (SELECT count(*) FROM agreement_tally WHERE NOT base))
      FROM (SELECT 1) one);
END
$fn$;

-- agreement_kept()
CREATE OR REPLACE FUNCTION agreement_kept() RETURNS boolean LANGUAGE sql STABLE AS $fn$
SELECT coalesce(current_setting('shortcut_audit.agreement_from_rows', true), '') <> 'on'
$fn$;

-- agreement_refresh(ids integer[])
CREATE OR REPLACE FUNCTION agreement_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    live integer[];
BEGIN
    PERFORM 1 FROM trajectory WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
    SELECT array_agg(x) INTO live FROM unnest(ids) x
    WHERE EXISTS (SELECT 1 FROM label WHERE "trajectoryId" = x)
       OR EXISTS (SELECT 1 FROM agreement_share WHERE "trajectoryId" = x);
    IF live IS NULL THEN
        RETURN;
    END IF;
    WITH fresh AS (SELECT * FROM agreement_shares(live)),
      gone AS (DELETE FROM agreement_share WHERE "trajectoryId" = ANY(live) RETURNING *),
      kept AS (INSERT INTO agreement_share SELECT * FROM fresh)
    INSERT INTO agreement_tally (scope, first_forms, key, n)
    SELECT scope, first_forms, key, sum(n)
    FROM (SELECT scope, first_forms, key, n FROM fresh UNION ALL SELECT scope, first_forms, key, -n FROM gone) d
    GROUP BY 1, 2, 3
    HAVING sum(n) <> 0;
END
$fn$;

-- agreement_shares(ids integer[])
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

-- agreement_shares_in(in_scope integer, in_first_forms boolean)
CREATE OR REPLACE FUNCTION agreement_shares_in(in_scope integer, in_first_forms boolean) RETURNS TABLE(key agreement_key, n integer) LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    RETURN QUERY SELECT s.key, s.n FROM agreement_shares(NULL) s
      WHERE s.scope = in_scope AND s.first_forms = in_first_forms;
END
$fn$;

-- agreement_touched()
CREATE OR REPLACE FUNCTION agreement_touched() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    IF NOT agreement_kept() THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        PERFORM agreement_refresh(ARRAY(SELECT DISTINCT "trajectoryId" FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM agreement_refresh(ARRAY(SELECT DISTINCT "trajectoryId" FROM old_rows));
    ELSIF EXISTS (SELECT FROM old_rows) THEN
        PERFORM agreement_refresh(ARRAY(
            SELECT "trajectoryId" FROM new_rows UNION SELECT "trajectoryId" FROM old_rows));
    END IF;
    RETURN NULL;
END
$fn$;

-- agreement_trajectory()
CREATE OR REPLACE FUNCTION agreement_trajectory() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    IF NOT agreement_kept() THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        PERFORM agreement_refresh(ARRAY(SELECT id FROM old_rows));
    ELSE
        PERFORM agreement_refresh(ARRAY(
            SELECT id FROM (
              SELECT id, "panelVerdict", network, prompt, "benchmarkId", "modelId" FROM new_rows
              EXCEPT SELECT id, "panelVerdict", network, prompt, "benchmarkId", "modelId" FROM old_rows) moved));
    END IF;
    RETURN NULL;
END
$fn$;

-- bump_data_version()
CREATE OR REPLACE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    flag text := 'shortcut_audit.bumped_' || TG_ARGV[0];
BEGIN
    -- Once per transaction and kind: the setting lasts as long as the transaction.
    IF current_setting(flag, true) IS DISTINCT FROM '1' THEN
        PERFORM set_config(flag, '1', true);
        UPDATE "data_version" SET "n" = "n" + 1 WHERE "kind" = TG_ARGV[0];
    END IF;
    RETURN NULL;
END
$fn$;

-- claim_judge_requests(p_judge integer, p_ids integer[], p_lease_minutes integer)
CREATE OR REPLACE FUNCTION claim_judge_requests(p_judge integer, p_ids integer[], p_lease_minutes integer) RETURNS TABLE(id integer, outcome text, "runId" integer, "trajectoryId" integer, "promptVersion" integer, fresh boolean, benchmark text, model text, task text, network boolean, prompt text, run integer) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_concurrency INTEGER;
  v_rpm INTEGER;
  v_room INTEGER;
  v_recent INTEGER;
  v_failed INTEGER;
BEGIN
  PERFORM pg_advisory_xact_lock(7411, p_judge);
  SELECT j.concurrency, j."requestsPerMinute" INTO v_concurrency, v_rpm FROM judge j WHERE j.id = p_judge;
  SELECT v_concurrency - count(*) INTO v_room FROM judge_request x
   WHERE x."judgeId" = p_judge AND x.status = 'ASKING'
     AND x."askedAt" > clock_timestamp() - make_interval(mins => p_lease_minutes);
  IF v_rpm IS NOT NULL THEN
    SELECT count(*) INTO v_recent FROM judge_request x
     WHERE x."judgeId" = p_judge AND x."askedAt" > clock_timestamp() - interval '1 minute';
    v_room := least(v_room, v_rpm - v_recent);
  END IF;
  v_room := greatest(v_room, 0);
  -- A request claimed MAX times whose worker never stored an answer (each died while asking it, as
  -- when its trajectory took the worker's memory) is failed with the reason, not claimed again.
  UPDATE judge_request r SET status = 'FAILED', error = 'asked ' || r.attempts || ' times, and each time the worker '
         || 'stopped before the answer was stored (it may have run out of memory); not asked again'
   WHERE r.id = ANY(p_ids) AND r."judgeId" + 0 = p_judge AND r.attempts >= 3
     AND (r.status = 'PENDING'
          OR (r.status = 'ASKING' AND r."askedAt" < clock_timestamp() - make_interval(mins => p_lease_minutes)));
  GET DIAGNOSTICS v_failed = ROW_COUNT;
  IF v_failed > 0 THEN
    -- A run with nothing left to ask is done (as when its last answer is stored).
    UPDATE judge_run u SET status = 'DONE'
     WHERE u.id IN (SELECT x."runId" FROM judge_request x WHERE x.id = ANY(p_ids)) AND u.status = 'RUNNING'
       AND NOT EXISTS (SELECT 1 FROM judge_request x WHERE x."runId" = u.id AND x.status IN ('PENDING', 'ASKING'));
  END IF;
  RETURN QUERY
  WITH claimable AS (
    SELECT r.id, row_number() OVER (ORDER BY r.id) AS n
      FROM judge_request r
     WHERE r.id = ANY(p_ids) AND r."judgeId" + 0 = p_judge
       AND (SELECT u.status FROM judge_run u WHERE u.id = r."runId") = 'RUNNING'
       AND (r.status = 'PENDING'
            OR (r.status = 'ASKING' AND r."askedAt" < clock_timestamp() - make_interval(mins => p_lease_minutes)))
  ), claimed AS (
    UPDATE judge_request r SET status = 'ASKING', "askedAt" = clock_timestamp(), attempts = r.attempts + 1
      FROM claimable c WHERE r.id = c.id AND c.n <= v_room
    RETURNING r.id, r."runId", r."trajectoryId", r."promptVersion", r."trajectoryVersion"
  )
  SELECT c.id, 'claimed'::text, c."runId", c."trajectoryId", c."promptVersion", t."updatedAt" = c."trajectoryVersion",
         b.name::text, m.name::text, k.key::text, t.network, t.prompt::text, t.run
    FROM claimed c JOIN trajectory t ON t.id = c."trajectoryId" JOIN benchmark b ON b.id = t."benchmarkId"
    JOIN agent_model m ON m.id = t."modelId" JOIN task k ON k.id = t."taskId"
  UNION ALL
  SELECT c.id, 'busy'::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    FROM claimable c WHERE c.n > v_room;
END;
$fn$;

-- compact_agreement_tallies()
CREATE OR REPLACE FUNCTION compact_agreement_tallies() RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM pg_advisory_xact_lock(7432);
    WITH gone AS (DELETE FROM agreement_tally RETURNING *)
    INSERT INTO agreement_tally (scope, first_forms, key, base, n)
    SELECT scope, first_forms, key, true, sum(n) FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
END
$fn$;

-- compact_result_tallies()
CREATE OR REPLACE FUNCTION compact_result_tallies() RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM pg_advisory_xact_lock(7431);
    WITH gone AS (DELETE FROM result_tally WHERE NOT base RETURNING *)
    INSERT INTO result_tally AS r ("benchmarkId", "modelId", network, prompt, base, trajectories, judged, attempts,
      successes, resolved_successes, unparseable, unparseable_trajectories, upstream_a, upstream_s, local_git_a,
      local_git_s, memory_a, memory_s, other_a, other_s)
    SELECT "benchmarkId", "modelId", network, prompt, true, sum(trajectories), sum(judged), sum(attempts),
      sum(successes), sum(resolved_successes), sum(unparseable), sum(unparseable_trajectories), sum(upstream_a),
      sum(upstream_s), sum(local_git_a), sum(local_git_s), sum(memory_a), sum(memory_s), sum(other_a), sum(other_s)
    FROM gone GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("benchmarkId", "modelId", network, prompt) WHERE base DO UPDATE SET
      trajectories = r.trajectories + excluded.trajectories, judged = r.judged + excluded.judged,
      attempts = r.attempts + excluded.attempts, successes = r.successes + excluded.successes,
      resolved_successes = r.resolved_successes + excluded.resolved_successes,
      unparseable = r.unparseable + excluded.unparseable,
      unparseable_trajectories = r.unparseable_trajectories + excluded.unparseable_trajectories,
      upstream_a = r.upstream_a + excluded.upstream_a, upstream_s = r.upstream_s + excluded.upstream_s,
      local_git_a = r.local_git_a + excluded.local_git_a, local_git_s = r.local_git_s + excluded.local_git_s,
      memory_a = r.memory_a + excluded.memory_a, memory_s = r.memory_s + excluded.memory_s,
      other_a = r.other_a + excluded.other_a, other_s = r.other_s + excluded.other_s;
    DELETE FROM result_tally WHERE base AND trajectories = 0;

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

-- rebuild_agreement_tallies()
CREATE OR REPLACE FUNCTION rebuild_agreement_tallies() RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM pg_advisory_xact_lock(7432);
    DELETE FROM agreement_share;
    DELETE FROM agreement_tally;
    INSERT INTO agreement_share SELECT * FROM agreement_shares(NULL);
    INSERT INTO agreement_tally (scope, first_forms, key, base, n)
    SELECT scope, first_forms, key, true, sum(n) FROM agreement_share GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
END
$fn$;

-- rebuild_result_tallies()
CREATE OR REPLACE FUNCTION rebuild_result_tallies() RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    DELETE FROM result_tally;
    DELETE FROM result_task_tally;
    DELETE FROM result_judge_tally;
    DELETE FROM result_task_shape;
    EXECUTE result_tally_trajectory_sql('SELECT 1 AS sign, * FROM trajectory');
    EXECUTE result_tally_vote_sql(result_tally_votes_of('judge_vote', 1));
    PERFORM compact_result_tallies();
END
$fn$;

-- result_tables()
CREATE OR REPLACE FUNCTION result_tables() RETURNS json LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    RETURN json_build_object(
      'conditions', (SELECT coalesce(json_agg(x), '[]') FROM (
        SELECT b.name AS benchmark, m.name AS model, r.network, r.prompt::text AS prompt,
          sum(r.trajectories)::int AS trajectories, sum(r.judged)::int AS judged, sum(r.attempts)::int AS attempts,
          sum(r.successes)::int AS successes, sum(r.resolved_successes)::int AS resolved_successes,
          sum(r.unparseable)::int AS unparseable, sum(r.unparseable_trajectories)::int AS unparseable_trajectories,
          sum(r.upstream_a)::int AS upstream_a, sum(r.upstream_s)::int AS upstream_s,
          sum(r.local_git_a)::int AS local_git_a, sum(r.local_git_s)::int AS local_git_s,
          sum(r.memory_a)::int AS memory_a, sum(r.memory_s)::int AS memory_s,
          sum(r.other_a)::int AS other_a, sum(r.other_s)::int AS other_s
        FROM result_tally r JOIN benchmark b ON b.id = r."benchmarkId" JOIN agent_model m ON m.id = r."modelId"
        GROUP BY b.name, m.name, r.network, r.prompt HAVING sum(r.trajectories) > 0) x),
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
        + (SELECT count(*) FROM result_task_tally WHERE NOT base)
        + (SELECT count(*) FROM result_judge_tally WHERE NOT base));
END
$fn$;

-- result_tally_trajectory()
CREATE OR REPLACE FUNCTION result_tally_trajectory() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF (SELECT count(*) FROM new_rows) <= 64 THEN
            
WITH s AS (SELECT 1 AS sign, * FROM new_rows),
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
;
        ELSE
            EXECUTE '
WITH s AS (SELECT 1 AS sign, * FROM new_rows),
  c AS (
    INSERT INTO result_tally ("benchmarkId", "modelId", network, prompt, trajectories, judged, attempts, successes,
      resolved_successes, unparseable, unparseable_trajectories, upstream_a, upstream_s, local_git_a, local_git_s,
      memory_a, memory_s, other_a, other_s)
    SELECT * FROM (
      SELECT "benchmarkId", "modelId", network, prompt,
        sum(sign)::int AS t,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IS NOT NULL), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL'' AND resolved), 0)::int,
        coalesce(sum(sign * "unparseableVotes"), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "unparseableVotes" > 0), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelUpstream" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelUpstream" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelLocalGit" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelLocalGit" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelMemory" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelMemory" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelOther" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelOther" = ''SUCCESSFUL''), 0)::int
      FROM s GROUP BY 1, 2, 3, 4) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0)
    RETURNING 1)
INSERT INTO result_task_tally ("benchmarkId", "modelId", network, prompt, "taskId", trajectories, n, c, e)
SELECT * FROM (
  SELECT "benchmarkId", "modelId", network, prompt, "taskId", sum(sign)::int,
    coalesce(sum(sign) FILTER (WHERE resolved IS NOT NULL), 0)::int,
    coalesce(sum(sign) FILTER (WHERE resolved), 0)::int,
    coalesce(sum(sign) FILTER (WHERE resolved AND "panelVerdict" = ''SUCCESSFUL''), 0)::int
  FROM s GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."taskId", 0, 0, 0, 0)
';
        END IF;
    ELSIF TG_OP = 'DELETE' THEN
        IF (SELECT count(*) FROM old_rows) <= 64 THEN
            
WITH s AS (SELECT -1 AS sign, * FROM old_rows),
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
;
        ELSE
            EXECUTE '
WITH s AS (SELECT -1 AS sign, * FROM old_rows),
  c AS (
    INSERT INTO result_tally ("benchmarkId", "modelId", network, prompt, trajectories, judged, attempts, successes,
      resolved_successes, unparseable, unparseable_trajectories, upstream_a, upstream_s, local_git_a, local_git_s,
      memory_a, memory_s, other_a, other_s)
    SELECT * FROM (
      SELECT "benchmarkId", "modelId", network, prompt,
        sum(sign)::int AS t,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IS NOT NULL), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL'' AND resolved), 0)::int,
        coalesce(sum(sign * "unparseableVotes"), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "unparseableVotes" > 0), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelUpstream" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelUpstream" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelLocalGit" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelLocalGit" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelMemory" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelMemory" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelOther" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelOther" = ''SUCCESSFUL''), 0)::int
      FROM s GROUP BY 1, 2, 3, 4) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0)
    RETURNING 1)
INSERT INTO result_task_tally ("benchmarkId", "modelId", network, prompt, "taskId", trajectories, n, c, e)
SELECT * FROM (
  SELECT "benchmarkId", "modelId", network, prompt, "taskId", sum(sign)::int,
    coalesce(sum(sign) FILTER (WHERE resolved IS NOT NULL), 0)::int,
    coalesce(sum(sign) FILTER (WHERE resolved), 0)::int,
    coalesce(sum(sign) FILTER (WHERE resolved AND "panelVerdict" = ''SUCCESSFUL''), 0)::int
  FROM s GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."taskId", 0, 0, 0, 0)
';
        END IF;
    ELSIF EXISTS (SELECT FROM old_rows) THEN
        IF (SELECT count(*) FROM old_rows) <= 64 THEN
            
WITH s AS (SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows),
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
;
        ELSE
            EXECUTE '
WITH s AS (SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows),
  c AS (
    INSERT INTO result_tally ("benchmarkId", "modelId", network, prompt, trajectories, judged, attempts, successes,
      resolved_successes, unparseable, unparseable_trajectories, upstream_a, upstream_s, local_git_a, local_git_s,
      memory_a, memory_s, other_a, other_s)
    SELECT * FROM (
      SELECT "benchmarkId", "modelId", network, prompt,
        sum(sign)::int AS t,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IS NOT NULL), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL'' AND resolved), 0)::int,
        coalesce(sum(sign * "unparseableVotes"), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "unparseableVotes" > 0), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelUpstream" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelUpstream" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelLocalGit" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelLocalGit" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelMemory" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelMemory" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelOther" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelOther" = ''SUCCESSFUL''), 0)::int
      FROM s GROUP BY 1, 2, 3, 4) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0)
    RETURNING 1)
INSERT INTO result_task_tally ("benchmarkId", "modelId", network, prompt, "taskId", trajectories, n, c, e)
SELECT * FROM (
  SELECT "benchmarkId", "modelId", network, prompt, "taskId", sum(sign)::int,
    coalesce(sum(sign) FILTER (WHERE resolved IS NOT NULL), 0)::int,
    coalesce(sum(sign) FILTER (WHERE resolved), 0)::int,
    coalesce(sum(sign) FILTER (WHERE resolved AND "panelVerdict" = ''SUCCESSFUL''), 0)::int
  FROM s GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."taskId", 0, 0, 0, 0)
';
        END IF;
        -- A trajectory moved to another condition takes its counted votes along. (Sets compared with
        -- EXCEPT: transition tables have no statistics, and a join of two could be planned as a
        -- nested loop over every pair of rows.)
        IF EXISTS (SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows
                   EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows) THEN
        IF (SELECT count(*) FROM old_rows) <= 64 THEN
            
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = 'SUCCESSFUL'), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = 'UNPARSEABLE'), 0)::int
  FROM (
              SELECT k.sign, k."benchmarkId", k."modelId", k.network, k.prompt, v."judgeId", v.overall,
                v."parseStatus", v.counted
              FROM (SELECT 1 AS sign, * FROM (SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows
                      EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows) moved_to
                    UNION ALL
                    SELECT -1 AS sign, * FROM (SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows
                      EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows) moved_from) k
                JOIN judge_vote v ON v."trajectoryId" = k.id) v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
;
        ELSE
            EXECUTE '
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = ''SUCCESSFUL''), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = ''UNPARSEABLE''), 0)::int
  FROM (
              SELECT k.sign, k."benchmarkId", k."modelId", k.network, k.prompt, v."judgeId", v.overall,
                v."parseStatus", v.counted
              FROM (SELECT 1 AS sign, * FROM (SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows
                      EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows) moved_to
                    UNION ALL
                    SELECT -1 AS sign, * FROM (SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows
                      EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows) moved_from) k
                JOIN judge_vote v ON v."trajectoryId" = k.id) v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
';
        END IF;
        END IF;
    END IF;
    RETURN NULL;
END
$fn$;

-- result_tally_trajectory_sql(src text)
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

-- result_tally_trajectory_votes_gone()
CREATE OR REPLACE FUNCTION result_tally_trajectory_votes_gone() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    EXECUTE result_tally_vote_sql(result_tally_votes_of(
        format('(SELECT * FROM judge_vote WHERE "trajectoryId" = %s)', OLD.id), -1));
    RETURN OLD;
END
$fn$;

-- result_tally_vote()
CREATE OR REPLACE FUNCTION result_tally_vote() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF (SELECT count(*) FROM new_rows) <= 64 THEN
            
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = 'SUCCESSFUL'), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = 'UNPARSEABLE'), 0)::int
  FROM (SELECT 1 AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM new_rows v JOIN trajectory t ON t.id = v."trajectoryId") v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
;
        ELSE
            EXECUTE '
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = ''SUCCESSFUL''), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = ''UNPARSEABLE''), 0)::int
  FROM (SELECT 1 AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM new_rows v JOIN trajectory t ON t.id = v."trajectoryId") v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
';
        END IF;
    ELSIF TG_OP = 'DELETE' THEN
        IF (SELECT count(*) FROM old_rows) <= 64 THEN
            
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = 'SUCCESSFUL'), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = 'UNPARSEABLE'), 0)::int
  FROM (SELECT -1 AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM old_rows v JOIN trajectory t ON t.id = v."trajectoryId") v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
;
        ELSE
            EXECUTE '
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = ''SUCCESSFUL''), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = ''UNPARSEABLE''), 0)::int
  FROM (SELECT -1 AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM old_rows v JOIN trajectory t ON t.id = v."trajectoryId") v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
';
        END IF;
    ELSIF EXISTS (SELECT FROM old_rows) THEN
        IF (SELECT count(*) FROM old_rows) <= 64 THEN
            
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = 'SUCCESSFUL'), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = 'UNPARSEABLE'), 0)::int
  FROM (SELECT 1 AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM new_rows v JOIN trajectory t ON t.id = v."trajectoryId" UNION ALL SELECT -1 AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM old_rows v JOIN trajectory t ON t.id = v."trajectoryId") v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
;
        ELSE
            EXECUTE '
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = ''SUCCESSFUL''), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = ''UNPARSEABLE''), 0)::int
  FROM (SELECT 1 AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM new_rows v JOIN trajectory t ON t.id = v."trajectoryId" UNION ALL SELECT -1 AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM old_rows v JOIN trajectory t ON t.id = v."trajectoryId") v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
';
        END IF;
    END IF;
    RETURN NULL;
END
$fn$;

-- result_tally_vote_sql(src text)
CREATE OR REPLACE FUNCTION result_tally_vote_sql(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($q$
INSERT INTO result_judge_tally ("benchmarkId", "modelId", network, prompt, "judgeId", votes, attempts, successes,
  unparseable)
SELECT * FROM (
  SELECT v."benchmarkId", v."modelId", v.network, v.prompt, v."judgeId",
    coalesce(sum(v.sign), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall IN ('ATTEMPTED', 'SUCCESSFUL')), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v.overall = 'SUCCESSFUL'), 0)::int,
    coalesce(sum(v.sign) FILTER (WHERE v."parseStatus" = 'UNPARSEABLE'), 0)::int
  FROM (%1$s) v
  WHERE v.counted
  GROUP BY 1, 2, 3, 4, 5) d
WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d."judgeId", 0, 0, 0, 0)
$q$, src)
$fn$;

-- result_tally_votes_of(rel text, sign integer)
CREATE OR REPLACE FUNCTION result_tally_votes_of(rel text, sign integer) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($q$SELECT %2$s AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM %1$s v JOIN trajectory t ON t.id = v."trajectoryId"$q$, rel, sign)
$fn$;

-- scoped_labels(ids integer[])
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
