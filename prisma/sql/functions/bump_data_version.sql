CREATE OR REPLACE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    flag text := 'shortcut_audit.bumped_' || TG_ARGV[0];
BEGIN
    -- Once per transaction and kind: the setting lasts as long as the transaction.
    IF current_setting(flag, true) IS DISTINCT FROM '1' THEN
        PERFORM set_config(flag, '1', true);
        UPDATE "data_version" SET "n" = "n" + 1 WHERE "kind" = TG_ARGV[0];
    END IF;
    RETURN NULL;
END
$fn$;
