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
