CREATE OR REPLACE FUNCTION agreement_touched() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    IF NOT agreement_kept() THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        PERFORM agreement_refresh(ARRAY(SELECT DISTINCT "trajectoryId" FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM agreement_refresh(ARRAY(SELECT DISTINCT "trajectoryId" FROM old_rows));
    ELSIF EXISTS (SELECT FROM old_rows) THEN
        PERFORM agreement_refresh(ARRAY(
            SELECT "trajectoryId" FROM new_rows UNION SELECT "trajectoryId" FROM old_rows));
    END IF;
    RETURN NULL;
END
$fn$;
