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
   WHERE x."judgeId" = p_judge AND x.status = 'ASKING' AND x."cohortOf" IS NULL
     AND x."askedAt" > clock_timestamp() - make_interval(mins => p_lease_minutes);
  IF v_rpm IS NOT NULL THEN
    SELECT count(*) INTO v_recent FROM judge_request x
     WHERE x."judgeId" = p_judge AND x."cohortOf" IS NULL AND x."askedAt" > clock_timestamp() - interval '1 minute';
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
    UPDATE judge_request r SET status = 'ASKING', "askedAt" = clock_timestamp(), attempts = r.attempts + 1,
           "cohortOf" = NULL
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
