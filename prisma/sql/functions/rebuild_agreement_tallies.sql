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
