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
