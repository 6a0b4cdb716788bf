CREATE OR REPLACE FUNCTION agreement_kept() RETURNS boolean LANGUAGE sql STABLE AS $fn$
SELECT coalesce(current_setting('shortcut_audit.agreement_from_rows', true), '') <> 'on'
$fn$;
