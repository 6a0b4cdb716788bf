-- A vote the app asked for points at its request (prompt version, model, settings, tokens, time, cost);
-- an imported vote replacing it clears the pointer.
ALTER TABLE "judge_vote" ADD COLUMN "requestId" INTEGER;
ALTER TABLE "judge_vote" ADD CONSTRAINT "judge_vote_requestId_fkey" FOREIGN KEY ("requestId")
  REFERENCES "judge_request"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The sampling settings a request was asked with (the judge's may change later).
ALTER TABLE "judge_request" ADD COLUMN "temperature" DOUBLE PRECISION;
ALTER TABLE "judge_request" ADD COLUMN "maxTokens" INTEGER;

-- Claims a batch of one judge's requests in one round trip. Claims of a judge are serialized by an
-- advisory lock taken before its live claims are counted (each statement of a function sees what
-- committed before it), so the judge's concurrency and requests per minute hold across every worker.
-- Returns each given id that could be claimed: 'claimed' (with what asking it needs: its run, prompt
-- version, trajectory and that trajectory's natural key, and whether the trajectory is still at the
-- version the request was planned for), or 'busy' when the judge is at a limit. Ids not returned are
-- answered, cancelled, paused or held by a live claim.
CREATE FUNCTION claim_judge_requests(p_judge INTEGER, p_ids INTEGER[], p_lease_minutes INTEGER)
RETURNS TABLE (id INTEGER, outcome TEXT, "runId" INTEGER, "trajectoryId" INTEGER, "promptVersion" INTEGER,
               fresh BOOLEAN, benchmark TEXT, model TEXT, task TEXT, network BOOLEAN, prompt TEXT, run INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
  v_concurrency INTEGER;
  v_rpm INTEGER;
  v_room INTEGER;
  v_recent INTEGER;
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
  RETURN QUERY
  WITH claimable AS (
    SELECT r.id, row_number() OVER (ORDER BY r.id) AS n
      FROM judge_request r JOIN judge_run u ON u.id = r."runId"
     WHERE r.id = ANY(p_ids) AND r."judgeId" = p_judge AND u.status = 'RUNNING'
       AND (r.status = 'PENDING'
            OR (r.status = 'ASKING' AND r."askedAt" < clock_timestamp() - make_interval(mins => p_lease_minutes)))
  ), claimed AS (
    UPDATE judge_request r SET status = 'ASKING', "askedAt" = clock_timestamp()
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
$$;
