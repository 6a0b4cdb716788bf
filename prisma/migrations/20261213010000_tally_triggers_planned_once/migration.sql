-- The tally triggers' statements written into their functions for writes of a few rows, so
-- PostgreSQL plans each once per connection instead of at every statement (decision 37). They were
-- all run with EXECUTE, planned afresh each time: a judge run at a served judge's pace stores its
-- answers one or two at a time, and planning was most of what each of its writes cost the database
-- (a vote's insert 1.3-1.9 ms, 0.6-0.8 ms after). A plan kept is made for the rows of its first
-- call (transition tables have no statistics but their count): one made for an import's thousands
-- would scan whole tables for every vote after it, so more than SMALL rows still go through EXECUTE
-- and are planned for what they are. The statements are still made by result_tally_vote_sql and
-- result_tally_trajectory_sql, here, when the functions are made: one text for both ways.
--
-- An UPDATE moving no rows returns at once: INSERT ... ON CONFLICT DO UPDATE fires the UPDATE
-- triggers too, with empty transition tables, for every vote a judge run stores.

DO $do$
DECLARE
  small CONSTANT integer := 64;
  -- A statement (%3$s) over the rows of a transition table (%1$s): written in, its plan kept, for up
  -- to `small` rows (%2$s); else run with EXECUTE, planned for them.
  either text := $e$
        IF (SELECT count(*) FROM %1$s) <= %2$s THEN
            %3$s;
        ELSE
            EXECUTE %3$L;
        END IF$e$;
  moved text := result_tally_vote_sql($q$
              SELECT k.sign, k."benchmarkId", k."modelId", k.network, k.prompt, v."judgeId", v.overall,
                v."parseStatus", v.counted
              FROM (SELECT 1 AS sign, * FROM (SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows
                      EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows) moved_to
                    UNION ALL
                    SELECT -1 AS sign, * FROM (SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows
                      EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows) moved_from) k
                JOIN judge_vote v ON v."trajectoryId" = k.id$q$);
BEGIN
  EXECUTE format($f$
CREATE OR REPLACE FUNCTION result_tally_vote() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    IF TG_OP = 'INSERT' THEN%1$s;
    ELSIF TG_OP = 'DELETE' THEN%2$s;
    ELSIF EXISTS (SELECT FROM old_rows) THEN%3$s;
    END IF;
    RETURN NULL;
END
$body$$f$,
    format(either, 'new_rows', small, result_tally_vote_sql(result_tally_votes_of('new_rows', 1))),
    format(either, 'old_rows', small, result_tally_vote_sql(result_tally_votes_of('old_rows', -1))),
    format(either, 'old_rows', small, result_tally_vote_sql(
      result_tally_votes_of('new_rows', 1) || ' UNION ALL ' || result_tally_votes_of('old_rows', -1))));

  EXECUTE format($f$
CREATE OR REPLACE FUNCTION result_tally_trajectory() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    IF TG_OP = 'INSERT' THEN%1$s;
    ELSIF TG_OP = 'DELETE' THEN%2$s;
    ELSIF EXISTS (SELECT FROM old_rows) THEN%3$s;
        -- A trajectory moved to another condition takes its counted votes along. (Sets compared with
        -- EXCEPT: transition tables have no statistics, and a join of two could be planned as a
        -- nested loop over every pair of rows.)
        IF EXISTS (SELECT id, "benchmarkId", "modelId", network, prompt FROM new_rows
                   EXCEPT SELECT id, "benchmarkId", "modelId", network, prompt FROM old_rows) THEN%4$s;
        END IF;
    END IF;
    RETURN NULL;
END
$body$$f$,
    format(either, 'new_rows', small, result_tally_trajectory_sql('SELECT 1 AS sign, * FROM new_rows')),
    format(either, 'old_rows', small, result_tally_trajectory_sql('SELECT -1 AS sign, * FROM old_rows')),
    format(either, 'old_rows', small, result_tally_trajectory_sql(
      'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows')),
    format(either, 'old_rows', small, moved));
END
$do$;

CREATE OR REPLACE FUNCTION agreement_touched() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;
