CREATE OR REPLACE FUNCTION agreement_trajectory() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    IF NOT agreement_kept() THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        PERFORM agreement_refresh(ARRAY(SELECT id FROM old_rows));
    ELSE
        PERFORM agreement_refresh(ARRAY(
            SELECT id FROM (
              SELECT id, "panelVerdict", network, prompt, "benchmarkId", "modelId" FROM new_rows
              EXCEPT SELECT id, "panelVerdict", network, prompt, "benchmarkId", "modelId" FROM old_rows) moved));
    END IF;
    RETURN NULL;
END
$fn$;
