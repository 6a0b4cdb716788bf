-- Running tallies of the result table (issue 31, decision 37): per condition, per condition and
-- task, per condition and judge. Triggers on trajectory and judge_vote write them in the same
-- statement as the rows that move them, whatever path writes those (imports' COPY, judge runs, the
-- panel's adoption, deletes), so a table reads a few hundred tally rows instead of every trajectory.
--
-- Writers only append signed deltas (base = false): no writer waits on another for a tally row, so
-- an import's long transaction holds no lock a judge run needs. A figure is the sum of a key's rows.
-- compact_result_tallies() folds the deltas into one base row per key; rebuild_result_tallies()
-- recomputes everything from the rows themselves (a database restored from a dump, a check).

CREATE TABLE "result_tally" (
    "benchmarkId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "network" BOOLEAN NOT NULL,
    "prompt" "Prompt" NOT NULL,
    "base" BOOLEAN NOT NULL DEFAULT false,
    "trajectories" INTEGER NOT NULL,
    "judged" INTEGER NOT NULL,
    "attempts" INTEGER NOT NULL,
    "successes" INTEGER NOT NULL,
    "resolved_successes" INTEGER NOT NULL,
    "unparseable" INTEGER NOT NULL,
    "unparseable_trajectories" INTEGER NOT NULL,
    "upstream_a" INTEGER NOT NULL,
    "upstream_s" INTEGER NOT NULL,
    "local_git_a" INTEGER NOT NULL,
    "local_git_s" INTEGER NOT NULL,
    "memory_a" INTEGER NOT NULL,
    "memory_s" INTEGER NOT NULL,
    "other_a" INTEGER NOT NULL,
    "other_s" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "result_tally_base" ON "result_tally" ("benchmarkId", "modelId", "network", "prompt") WHERE "base";

-- Per task: n runs of known status, c resolved, e resolved and judged SUCCESSFUL (Pass@k, and the
-- resolve rate without exploit-aided resolutions).
CREATE TABLE "result_task_tally" (
    "benchmarkId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "network" BOOLEAN NOT NULL,
    "prompt" "Prompt" NOT NULL,
    "taskId" INTEGER NOT NULL,
    "base" BOOLEAN NOT NULL DEFAULT false,
    "trajectories" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "c" INTEGER NOT NULL,
    "e" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "result_task_tally_base" ON "result_task_tally" ("benchmarkId", "modelId", "network", "prompt", "taskId") WHERE "base";
CREATE INDEX "result_task_tally_deltas" ON "result_task_tally" ("benchmarkId", "modelId", "network", "prompt", "taskId") WHERE NOT "base";

-- The base rows' tasks by shape: how many tasks of a condition have n, c, e. Pass@k reads this, with
-- the few tasks whose deltas are not folded yet corrected as it reads (lib/data/results.ts).
CREATE TABLE "result_task_shape" (
    "benchmarkId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "network" BOOLEAN NOT NULL,
    "prompt" "Prompt" NOT NULL,
    "n" INTEGER NOT NULL,
    "c" INTEGER NOT NULL,
    "e" INTEGER NOT NULL,
    "tasks" INTEGER NOT NULL,
    CONSTRAINT "result_task_shape_pkey" PRIMARY KEY ("benchmarkId", "modelId", "network", "prompt", "n", "c", "e")
);

-- Per judge: its counted votes (the panel in force's).
CREATE TABLE "result_judge_tally" (
    "benchmarkId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "network" BOOLEAN NOT NULL,
    "prompt" "Prompt" NOT NULL,
    "judgeId" INTEGER NOT NULL,
    "base" BOOLEAN NOT NULL DEFAULT false,
    "votes" INTEGER NOT NULL,
    "attempts" INTEGER NOT NULL,
    "successes" INTEGER NOT NULL,
    "unparseable" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "result_judge_tally_base" ON "result_judge_tally" ("benchmarkId", "modelId", "network", "prompt", "judgeId") WHERE "base";

-- The deltas of trajectory rows `src` (a query giving sign and the trajectory's columns): one
-- statement per tally, a row per key whose sums moved (a write that moves none appends nothing).
CREATE FUNCTION result_tally_trajectory_sql(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
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
$f$;

-- Votes as the judges' tallies read them: sign, the condition, judge, verdict, parse status and
-- whether counted, for the votes of `rel` (a relation with judge_vote's columns) on trajectories
-- that still exist (a trajectory's delete takes its votes out itself, before they go).
CREATE FUNCTION result_tally_votes_of(rel text, sign integer) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
SELECT format($q$SELECT %2$s AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM %1$s v JOIN trajectory t ON t.id = v."trajectoryId"$q$, rel, sign)
$f$;

-- The judges' deltas of votes `src` (a query giving what result_tally_votes_of gives).
CREATE FUNCTION result_tally_vote_sql(src text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
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
$f$;

CREATE FUNCTION result_tally_trajectory() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        EXECUTE result_tally_trajectory_sql('SELECT 1 AS sign, * FROM new_rows');
    ELSIF TG_OP = 'DELETE' THEN
        EXECUTE result_tally_trajectory_sql('SELECT -1 AS sign, * FROM old_rows');
    ELSE
        EXECUTE result_tally_trajectory_sql(
            'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows');
        -- A trajectory moved to another condition takes its counted votes along. (Sets compared with
        -- EXCEPT: transition tables have no statistics, and a join of two could be planned as a
        -- nested loop over every pair of rows.)
        IF EXISTS (SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows
                   EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows) THEN
            EXECUTE result_tally_vote_sql($q$
              SELECT k.sign, k."benchmarkId", k."modelId", k.network, k.prompt, v."judgeId", v.overall,
                v."parseStatus", v.counted
              FROM (SELECT 1 AS sign, * FROM (SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows
                      EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows) moved_to
                    UNION ALL
                    SELECT -1 AS sign, * FROM (SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows
                      EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows) moved_from) k
                JOIN judge_vote v ON v."trajectoryId" = k.id$q$);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION result_tally_vote() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        EXECUTE result_tally_vote_sql(result_tally_votes_of('new_rows', 1));
    ELSIF TG_OP = 'DELETE' THEN
        EXECUTE result_tally_vote_sql(result_tally_votes_of('old_rows', -1));
    ELSE
        EXECUTE result_tally_vote_sql(
            result_tally_votes_of('new_rows', 1) || ' UNION ALL ' || result_tally_votes_of('old_rows', -1));
    END IF;
    RETURN NULL;
END
$$;

-- Before a trajectory goes, its counted votes leave its judges' tallies (the votes' own delete,
-- cascaded, no longer finds the trajectory).
CREATE FUNCTION result_tally_trajectory_votes_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE result_tally_vote_sql(result_tally_votes_of(
        format('(SELECT * FROM judge_vote WHERE "trajectoryId" = %s)', OLD.id), -1));
    RETURN OLD;
END
$$;

CREATE TRIGGER result_tally_trajectory_insert AFTER INSERT ON trajectory
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_trajectory();
CREATE TRIGGER result_tally_trajectory_update AFTER UPDATE ON trajectory
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_trajectory();
CREATE TRIGGER result_tally_trajectory_delete AFTER DELETE ON trajectory
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_trajectory();
CREATE TRIGGER result_tally_trajectory_votes_gone BEFORE DELETE ON trajectory
    FOR EACH ROW EXECUTE FUNCTION result_tally_trajectory_votes_gone();
CREATE TRIGGER result_tally_vote_insert AFTER INSERT ON judge_vote
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_vote();
CREATE TRIGGER result_tally_vote_update AFTER UPDATE ON judge_vote
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_vote();
CREATE TRIGGER result_tally_vote_delete AFTER DELETE ON judge_vote
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION result_tally_vote();

-- Folds each tally's deltas into its base rows. Only committed deltas are seen; calls wait for each
-- other, so a delta is folded once; writers never wait for it (they only append).
CREATE FUNCTION compact_result_tallies() RETURNS void LANGUAGE plpgsql AS $$
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
$$;

-- Recomputes every tally from the trajectories and votes, with the same sums the triggers write.
CREATE FUNCTION rebuild_result_tallies() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM result_tally;
    DELETE FROM result_task_tally;
    DELETE FROM result_judge_tally;
    DELETE FROM result_task_shape;
    EXECUTE result_tally_trajectory_sql('SELECT 1 AS sign, * FROM trajectory');
    EXECUTE result_tally_vote_sql(result_tally_votes_of('judge_vote', 1));
    PERFORM compact_result_tallies();
END
$$;

-- The result table's three lists in one call, as JSON (lib/data/results.ts reads it): conditions,
-- tasks by shape, judges, and how many delta rows wait to be folded. PL/pgSQL keeps the plan for the
-- session, which is most of what a read costs. A key's figures are the sum of its rows. Tasks by
-- shape are the base rows' shapes, corrected for the few tasks with deltas not folded yet: each
-- leaves its base row's shape for its current one.
CREATE FUNCTION result_tables() RETURNS json LANGUAGE plpgsql STABLE AS $$
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
$$;

SELECT rebuild_result_tallies();
