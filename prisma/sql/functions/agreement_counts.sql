CREATE OR REPLACE FUNCTION agreement_counts(in_scope integer, in_first_forms boolean) RETURNS json LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    RETURN (
      WITH k AS (
        SELECT (key).*, sum(n)::int AS count
        FROM (SELECT key, n FROM agreement_tally WHERE agreement_kept() AND scope = in_scope
                AND first_forms = in_first_forms
              UNION ALL
              SELECT key, n FROM agreement_shares_in(in_scope, in_first_forms) WHERE NOT agreement_kept()) t
        GROUP BY key HAVING sum(n) <> 0)
      SELECT json_build_object(
        'labels', (SELECT coalesce(json_agg(x), '[]') FROM (
          SELECT b.name AS benchmark, m.name AS model, k.network, k.prompt::text AS prompt, k.human, k.panel,
            k.revised, k.count
          FROM k JOIN benchmark b ON b.id = k."benchmarkId" JOIN agent_model m ON m.id = k."modelId"
          WHERE k.part = 'l') x),
        'judges', (SELECT coalesce(json_agg(x), '[]') FROM (
          SELECT jd.name AS judge, k.human, k.verdict, k.count
          FROM k JOIN judge jd ON jd.id = k."judgeId" WHERE k.part = 'j') x),
        'units', (SELECT coalesce(json_agg(x), '[]') FROM (
          SELECT k.not_attempted, k.attempted, k.successful, k.count FROM k WHERE k.part = 'u') x),
        'annotators', (SELECT coalesce(json_agg(u.handle ORDER BY u.handle), '[]')
          FROM k JOIN "user" u ON u.id = k."annotatorId" WHERE k.part = 'a'),
        'deltas', (SELECT count(*) FROM agreement_tally WHERE NOT base))
      FROM (SELECT 1) one);
END
$fn$;
