-- The kept tallies' tables are never truncated by VACUUM. Their deltas are appended by every write
-- and deleted by each fold (lib/data/tally-folds.ts), which then vacuums them: the empty pages at a
-- table's end are refilled within seconds, and truncating them takes an ACCESS EXCLUSIVE lock on a
-- table that every vote's and label's trigger writes and every reader of the figures reads (seen in
-- the mixed load: a fold's VACUUM waiting for that lock, `Timeout: VacuumTruncate`). The same holds
-- for autovacuum, where it is on.
ALTER TABLE "result_tally" SET (vacuum_truncate = false);
ALTER TABLE "result_task_tally" SET (vacuum_truncate = false);
ALTER TABLE "result_task_shape" SET (vacuum_truncate = false);
ALTER TABLE "result_judge_tally" SET (vacuum_truncate = false);
ALTER TABLE "agreement_tally" SET (vacuum_truncate = false);
