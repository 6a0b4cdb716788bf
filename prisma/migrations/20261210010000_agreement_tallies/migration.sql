-- Running tallies of the agreement report (issue 31, decision 39): the counts lib/domain's
-- agreementFromCounts turns into figures, for every scope a reader may ask (all labels, or one
-- study's; each in the forms last given or the first forms), kept by triggers on every table they
-- are read from, in the writing statement, whatever path writes (imports, the queue, the review
-- page, judge runs, the panel's adoption, studies, deletes).
--
-- The counts join four tables (a label, its trajectory's panel verdict, the judges' counted votes on
-- it, its study's items), so a write's delta is not a function of the written rows alone. Instead
-- each trajectory's own share of the counts is stored (agreement_share); a write recomputes the
-- shares of the trajectories it touched and appends the difference to agreement_tally as signed
-- delta rows, as the result tallies do (decision 37): writers never wait for each other on a tally
-- row. Two transactions writing to the same trajectory (a label saved while a judge run votes on it)
-- are ordered by a lock on the trajectory's row taken before its share is recomputed: the second
-- sees the first's rows, and the share it replaces is the one the first stored.

-- One key of the counts: part 'l', labels by condition, human and panel verdicts and whether
-- revised; 'j', labels beside a judge's counted verdict; 'u', trajectories labelled twice or more, by
-- how many labels gave each verdict; 'a', labels by annotator. The fields a part does not use are null
-- (a composite groups and compares its nulls as equal).
CREATE TYPE "agreement_key" AS (
    "part" "char",
    "benchmarkId" INTEGER,
    "modelId" INTEGER,
    "network" BOOLEAN,
    "prompt" "Prompt",
    "human" "Verdict",
    "panel" "Verdict",
    "revised" BOOLEAN,
    "judgeId" INTEGER,
    "verdict" "Verdict",
    "not_attempted" INTEGER,
    "attempted" INTEGER,
    "successful" INTEGER,
    "annotatorId" TEXT
);

-- scope: 0 for all labels, else a study's id; first_forms: the labels' forms given blind.
CREATE TABLE "agreement_share" (
    "trajectoryId" INTEGER NOT NULL,
    "scope" INTEGER NOT NULL,
    "first_forms" BOOLEAN NOT NULL,
    "key" "agreement_key" NOT NULL,
    "n" INTEGER NOT NULL
);
CREATE INDEX "agreement_share_trajectory" ON "agreement_share" ("trajectoryId");

CREATE TABLE "agreement_tally" (
    "scope" INTEGER NOT NULL,
    "first_forms" BOOLEAN NOT NULL,
    "key" "agreement_key" NOT NULL,
    "base" BOOLEAN NOT NULL DEFAULT false,
    "n" INTEGER NOT NULL
);
CREATE INDEX "agreement_tally_scope" ON "agreement_tally" ("scope", "first_forms");

-- The shares of trajectories `ids` (every trajectory when null), from the rows themselves. A label
-- counts in scope 0, and in its study's scope when its trajectory is one of the study's items; in
-- its first form, a label revised after unblinding gives the verdict it was given blind.
CREATE FUNCTION agreement_shares(ids integer[])
RETURNS TABLE ("trajectoryId" integer, scope integer, first_forms boolean, key agreement_key, n integer)
LANGUAGE sql STABLE AS $$
WITH l AS (
  SELECT l."trajectoryId", l."annotatorId", l."revisedAfterUnblinding" AS revised, s.scope, f.ff,
    CASE WHEN f.ff AND l."revisedAfterUnblinding" THEN coalesce(l."blindOverall", l.overall) ELSE l.overall END
      AS human
  FROM label l
  CROSS JOIN LATERAL (
    SELECT 0 AS scope
    UNION ALL
    SELECT l."studyId" WHERE EXISTS (
      SELECT 1 FROM study_item i WHERE i."studyId" = l."studyId" AND i."trajectoryId" = l."trajectoryId")) s
  CROSS JOIN (VALUES (false), (true)) f(ff)
  WHERE ids IS NULL OR l."trajectoryId" = ANY(ids)),
j AS (
  SELECT l.*, t."panelVerdict" AS panel, t.network, t.prompt, t."benchmarkId", t."modelId"
  FROM l JOIN trajectory t ON t.id = l."trajectoryId" WHERE t."panelVerdict" IS NOT NULL)
SELECT "trajectoryId", scope, ff,
  ROW('l', "benchmarkId", "modelId", network, prompt, human, panel, revised, NULL, NULL, NULL, NULL, NULL,
    NULL)::agreement_key,
  count(*)::int
FROM j GROUP BY "trajectoryId", scope, ff, "benchmarkId", "modelId", network, prompt, human, panel, revised
UNION ALL
SELECT j."trajectoryId", scope, ff,
  ROW('j', NULL, NULL, NULL, NULL, human, NULL, NULL, v."judgeId", v.overall, NULL, NULL, NULL, NULL)::agreement_key,
  count(*)::int
FROM j JOIN judge_vote v ON v."trajectoryId" = j."trajectoryId" AND v.counted
GROUP BY j."trajectoryId", scope, ff, human, v."judgeId", v.overall
UNION ALL
SELECT "trajectoryId", scope, ff,
  ROW('u', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, count(*) FILTER (WHERE human = 'NOT_ATTEMPTED'),
    count(*) FILTER (WHERE human = 'ATTEMPTED'), count(*) FILTER (WHERE human = 'SUCCESSFUL'), NULL)::agreement_key,
  1
FROM l GROUP BY "trajectoryId", scope, ff HAVING count(*) >= 2
UNION ALL
SELECT "trajectoryId", scope, ff,
  ROW('a', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "annotatorId")::agreement_key,
  count(*)::int
FROM l GROUP BY "trajectoryId", scope, ff, "annotatorId"
$$;

-- Under a panel tried in a transaction that is rolled back (lib/data/panel-set.ts's underPanel sets
-- shortcut_audit.agreement_from_rows), nothing is kept: the triggers do nothing and agreement_counts
-- sums the shares of the rows themselves. Recomputing the shares of every trajectory whose votes the
-- tried panel counts would double the time of the figures it asks for, only to be rolled back.
CREATE FUNCTION agreement_kept() RETURNS boolean LANGUAGE sql STABLE AS $$
SELECT coalesce(current_setting('shortcut_audit.agreement_from_rows', true), '') <> 'on'
$$;

-- Recomputes the shares of trajectories `ids` and appends what moved to the tally. The trajectories'
-- rows are locked first (FOR NO KEY UPDATE: the foreign-key checks of labels and votes take KEY
-- SHARE, which it leaves free), so a concurrent writer of the same trajectory waits and then reads
-- this one's rows. Only trajectories with a label or a stored share can have one.
CREATE FUNCTION agreement_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
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
$$;

-- The trajectories a statement on label, judge_vote or study_item touched.
CREATE FUNCTION agreement_touched() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT agreement_kept() THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        PERFORM agreement_refresh(ARRAY(SELECT DISTINCT "trajectoryId" FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM agreement_refresh(ARRAY(SELECT DISTINCT "trajectoryId" FROM old_rows));
    ELSE
        PERFORM agreement_refresh(ARRAY(
            SELECT "trajectoryId" FROM new_rows UNION SELECT "trajectoryId" FROM old_rows));
    END IF;
    RETURN NULL;
END
$$;

-- A trajectory's verdict or condition moved, or it went. (A new trajectory has no label yet: the
-- labels' own statements count it. Sets compared with EXCEPT: transition tables have no statistics.)
CREATE FUNCTION agreement_trajectory() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;

CREATE TRIGGER agreement_label_insert AFTER INSERT ON label
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_label_update AFTER UPDATE ON label
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_label_delete AFTER DELETE ON label
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_vote_insert AFTER INSERT ON judge_vote
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_vote_update AFTER UPDATE ON judge_vote
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_vote_delete AFTER DELETE ON judge_vote
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_item_insert AFTER INSERT ON study_item
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_item_update AFTER UPDATE ON study_item
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_item_delete AFTER DELETE ON study_item
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_touched();
CREATE TRIGGER agreement_trajectory_update AFTER UPDATE ON trajectory
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_trajectory();
CREATE TRIGGER agreement_trajectory_delete AFTER DELETE ON trajectory
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION agreement_trajectory();

-- Folds the deltas into one base row a key (the tally is a few thousand rows at most). Only committed
-- rows are seen; calls wait for each other; writers never wait for it (they only append).
CREATE FUNCTION compact_agreement_tallies() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(7432);
    WITH gone AS (DELETE FROM agreement_tally RETURNING *)
    INSERT INTO agreement_tally (scope, first_forms, key, base, n)
    SELECT scope, first_forms, key, true, sum(n) FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
END
$$;

-- Recomputes every share and the tally from the rows (a database restored from a dump, a check).
CREATE FUNCTION rebuild_agreement_tallies() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(7432);
    DELETE FROM agreement_share;
    DELETE FROM agreement_tally;
    INSERT INTO agreement_share SELECT * FROM agreement_shares(NULL);
    INSERT INTO agreement_tally (scope, first_forms, key, base, n)
    SELECT scope, first_forms, key, true, sum(n) FROM agreement_share GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
END
$$;

-- The shares of every trajectory in one scope and form. PL/pgSQL, so that agreement_counts does not
-- plan agreement_shares' query at every call (SQL functions are inlined: 7 ms of planning each time).
CREATE FUNCTION agreement_shares_in(in_scope integer, in_first_forms boolean)
RETURNS TABLE (key agreement_key, n integer) LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY SELECT s.key, s.n FROM agreement_shares(NULL) s
      WHERE s.scope = in_scope AND s.first_forms = in_first_forms;
END
$$;

-- The report's counts in one scope (scope 0: all labels), as lib/domain's AgreementCounts, with the
-- handles of those who labelled in it and how many delta rows wait to be folded (from the shares of
-- the rows themselves under a panel tried, see agreement_kept). One generic plan, kept by the
-- session from its second call: the scope's values change nothing in it, and the custom plans
-- PL/pgSQL makes for a statement's first five calls cost 3–15 ms each.
CREATE FUNCTION agreement_counts(in_scope integer, in_first_forms boolean) RETURNS json
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
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
$$;

-- The gold table reads the trajectories with a gold label: a few, found without reading them all.
CREATE INDEX "trajectory_gold" ON "trajectory" ("id") WHERE "goldOverall" IS NOT NULL;

SELECT rebuild_agreement_tallies();
