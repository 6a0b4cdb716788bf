CREATE OR REPLACE FUNCTION result_tally_votes_of(rel text, sign integer) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($q$SELECT %2$s AS sign, t."benchmarkId", t."modelId", t.network, t.prompt, v."judgeId", v.overall,
  v."parseStatus", v.counted FROM %1$s v JOIN trajectory t ON t.id = v."trajectoryId"$q$, rel, sign)
$fn$;
