import "server-only";
// Imports whose process died, marked interrupted by the next process (decision 32); nothing of them was written.
import { currentDb } from "@/lib/db/connect";
import { statement } from "../sql";

/** The advisory lock class of imports (the second key is the import's id). */
export const IMPORT_LOCK = 7412;

export const INTERRUPTED =
  "interrupted: the process importing it stopped before it finished (a crash, a restart, or memory " +
  "running out); nothing from this file was written. Import it again";

/** Marks dead imports failed and returns their ids; on the embedded database every RUNNING one is dead. */
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
