import "server-only";
import { statement } from "@/lib/data/sql";
// What a process that died leaves in the database, put right by the next one (decision 32): a
// RUNNING import whose session lock (taken in lib/data/import/import-row.ts) is free is marked
// interrupted; its transaction died with it, so nothing of its file was written.
import { currentDb } from "@/lib/db/connect";

/** The advisory lock class of imports (the second key is the import's id). */
export const IMPORT_LOCK = 7412;

export const INTERRUPTED =
  "interrupted: the process importing it stopped before it finished (a crash, a restart, or memory " +
  "running out); nothing from this file was written. Import it again";

/**
 * Marks the imports whose process has died as failed, with the reason; returns their ids. On the
 * embedded database the process that opens it is its only user, so every RUNNING import is dead.
 */
export async function sweepInterruptedImports(): Promise<number[]> {
  const handle = currentDb();
  const errors = JSON.stringify([{ line: 0, field: null, message: INTERRUPTED }]);
  const rows = await statement<{ id: number }>(
    `UPDATE "import" SET status = 'FAILED', "finishedAt" = now(), rejected = 1, errors = $1::jsonb
      WHERE status = 'RUNNING' ${handle.pool ? `AND pg_try_advisory_xact_lock(${IMPORT_LOCK}, id)` : ""}
      RETURNING id`,
    [errors],
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
