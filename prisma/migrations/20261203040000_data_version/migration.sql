-- Versions of the data pages show, one counter per kind, bumped by the transactions that change it
-- and visible exactly when their changes are: the bump is an UPDATE made at commit time (a deferred
-- constraint trigger), once per transaction and kind, so the counter's row is locked only while a
-- transaction commits. Pages are kept by the version of what they show (lib/server/page-cache.ts),
-- in every app process alike. A trajectory's messages, tool calls and evidence are written with its
-- row (or change it), so the trajectory's trigger stands for them; a label's revisions with the label.
CREATE TABLE "data_version" (
    "kind" TEXT NOT NULL,
    "n" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "data_version_pkey" PRIMARY KEY ("kind")
);
INSERT INTO "data_version" ("kind") VALUES
    ('trajectories'), ('votes'), ('labels'), ('gold'), ('studies'), ('reports'), ('people');

CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;

DO $$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT * FROM (VALUES
        ('trajectory', 'trajectories'), ('task', 'trajectories'), ('task_record', 'trajectories'),
        ('judge_vote', 'votes'), ('judge', 'votes'),
        ('label', 'labels'),
        ('gold_label', 'gold'),
        ('study', 'studies'), ('study_item', 'studies'), ('study_assignment', 'studies'),
        ('frozen_report', 'reports'), ('report_link', 'reports'),
        ('user', 'people')
    ) AS v(tab, kind) LOOP
        EXECUTE format(
            'CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I '
            'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version(%L)',
            t.tab || '_data_version', t.tab, t.kind);
    END LOOP;
END
$$;
