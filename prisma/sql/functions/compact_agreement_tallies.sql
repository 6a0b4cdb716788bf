CREATE OR REPLACE FUNCTION compact_agreement_tallies() RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM pg_advisory_xact_lock(7432);
    WITH gone AS (DELETE FROM agreement_tally RETURNING *)
    INSERT INTO agreement_tally (scope, first_forms, key, base, n)
    SELECT scope, first_forms, key, true, sum(n) FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
END
$fn$;
