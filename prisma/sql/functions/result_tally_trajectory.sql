CREATE OR REPLACE FUNCTION result_tally_trajectory() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF (SELECT count(*) FROM new_rows) <= 64 THEN
            
WITH s AS (SELECT 1 AS sign, * FROM new_rows),
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
;
        ELSE
            EXECUTE '
WITH s AS (SELECT 1 AS sign, * FROM new_rows),
  c AS (
    INSERT INTO result_tally ("benchmarkId", "modelId", network, prompt, trajectories, judged, attempts, successes,
      resolved_successes, unparseable, unparseable_trajectories)
    SELECT * FROM (
      SELECT "benchmarkId", "modelId", network, prompt,
        sum(sign)::int AS t,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IS NOT NULL), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL'' AND resolved), 0)::int,
        coalesce(sum(sign * "unparseableVotes"), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "unparseableVotes" > 0), 0)::int
      FROM s GROUP BY 1, 2, 3, 4) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, 0, 0, 0, 0, 0, 0, 0)
    RETURNING 1),
  k AS (
    INSERT INTO result_category_tally ("benchmarkId", "modelId", network, prompt, category, judged, attempts, successes)
    SELECT * FROM (
      SELECT s."benchmarkId", s."modelId", s.network, s.prompt, e.key, sum(s.sign)::int AS judged,
        coalesce(sum(s.sign) FILTER (WHERE e.value IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(s.sign) FILTER (WHERE e.value = ''SUCCESSFUL''), 0)::int
      FROM s, jsonb_each_text(s."panelCategories") e GROUP BY 1, 2, 3, 4, 5) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d.key, 0, 0, 0)
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
;
        ELSE
            EXECUTE '
WITH s AS (SELECT -1 AS sign, * FROM old_rows),
  c AS (
    INSERT INTO result_tally ("benchmarkId", "modelId", network, prompt, trajectories, judged, attempts, successes,
      resolved_successes, unparseable, unparseable_trajectories)
    SELECT * FROM (
      SELECT "benchmarkId", "modelId", network, prompt,
        sum(sign)::int AS t,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IS NOT NULL), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL'' AND resolved), 0)::int,
        coalesce(sum(sign * "unparseableVotes"), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "unparseableVotes" > 0), 0)::int
      FROM s GROUP BY 1, 2, 3, 4) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, 0, 0, 0, 0, 0, 0, 0)
    RETURNING 1),
  k AS (
    INSERT INTO result_category_tally ("benchmarkId", "modelId", network, prompt, category, judged, attempts, successes)
    SELECT * FROM (
      SELECT s."benchmarkId", s."modelId", s.network, s.prompt, e.key, sum(s.sign)::int AS judged,
        coalesce(sum(s.sign) FILTER (WHERE e.value IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(s.sign) FILTER (WHERE e.value = ''SUCCESSFUL''), 0)::int
      FROM s, jsonb_each_text(s."panelCategories") e GROUP BY 1, 2, 3, 4, 5) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d.key, 0, 0, 0)
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
;
        ELSE
            EXECUTE '
WITH s AS (SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows),
  c AS (
    INSERT INTO result_tally ("benchmarkId", "modelId", network, prompt, trajectories, judged, attempts, successes,
      resolved_successes, unparseable, unparseable_trajectories)
    SELECT * FROM (
      SELECT "benchmarkId", "modelId", network, prompt,
        sum(sign)::int AS t,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IS NOT NULL), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL''), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "panelVerdict" = ''SUCCESSFUL'' AND resolved), 0)::int,
        coalesce(sum(sign * "unparseableVotes"), 0)::int,
        coalesce(sum(sign) FILTER (WHERE "unparseableVotes" > 0), 0)::int
      FROM s GROUP BY 1, 2, 3, 4) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, 0, 0, 0, 0, 0, 0, 0)
    RETURNING 1),
  k AS (
    INSERT INTO result_category_tally ("benchmarkId", "modelId", network, prompt, category, judged, attempts, successes)
    SELECT * FROM (
      SELECT s."benchmarkId", s."modelId", s.network, s.prompt, e.key, sum(s.sign)::int AS judged,
        coalesce(sum(s.sign) FILTER (WHERE e.value IN (''ATTEMPTED'', ''SUCCESSFUL'')), 0)::int,
        coalesce(sum(s.sign) FILTER (WHERE e.value = ''SUCCESSFUL''), 0)::int
      FROM s, jsonb_each_text(s."panelCategories") e GROUP BY 1, 2, 3, 4, 5) d
    WHERE (d.*) IS DISTINCT FROM (d."benchmarkId", d."modelId", d.network, d.prompt, d.key, 0, 0, 0)
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
