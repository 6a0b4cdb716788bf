CREATE OR REPLACE FUNCTION agreement_shares_in(in_scope integer, in_first_forms boolean) RETURNS TABLE(key agreement_key, n integer) LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    RETURN QUERY SELECT s.key, s.n FROM agreement_shares(NULL) s
      WHERE s.scope = in_scope AND s.first_forms = in_first_forms;
END
$fn$;
