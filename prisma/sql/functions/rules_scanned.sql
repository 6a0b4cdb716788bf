CREATE OR REPLACE FUNCTION rules_scanned() RETURNS TABLE(id integer) LANGUAGE sql STABLE AS $fn$
  SELECT r.id FROM rules_in_force() r
   WHERE r.enabled AND NOT EXISTS (SELECT FROM rule_scan f WHERE f."ruleId" = r.id AND f.failure IS NOT NULL)
$fn$;
