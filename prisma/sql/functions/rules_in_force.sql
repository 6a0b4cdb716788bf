CREATE OR REPLACE FUNCTION rules_in_force() RETURNS SETOF rule LANGUAGE sql STABLE AS $fn$
  SELECT DISTINCT ON (name) * FROM rule ORDER BY name, "createdAt" DESC, id DESC
$fn$;
