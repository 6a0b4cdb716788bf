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
