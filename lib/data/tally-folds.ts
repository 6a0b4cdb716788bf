import "server-only";
// The running tallies the database keeps (decisions 37 and 39): writers append signed deltas, a
// reader that reads many folds them into base rows in the background, and a rebuild recomputes them
// from the rows (`npm run cli -- tallies rebuild`, for a database restored from a dump).
import { db } from "@/lib/db";
import { currentScope } from "@/lib/db-scope";

/** Each kept tally: the function that folds its deltas, and its tables (vacuumed after a fold). */
const TALLIES = {
  results: {
    fold: "compact_result_tallies",
    rebuild: "rebuild_result_tallies",
    tables: ["result_tally", "result_task_tally", "result_task_shape", "result_judge_tally"],
  },
  agreement: {
    fold: "compact_agreement_tallies",
    rebuild: "rebuild_agreement_tallies",
    tables: ["agreement_tally"],
  },
} as const;

export type Tally = keyof typeof TALLIES;

/** Deltas read past which a reader folds them into the base rows (in the background). */
const FOLD_AFTER = 500;

/** Folds a tally's deltas into its base rows (the figures do not change). */
export async function compactTallies(tally: Tally): Promise<void> {
  await db().$executeRawUnsafe(`SELECT ${TALLIES[tally].fold}()`);
}

const folding = new Set<Tally>();

/**
 * Called by a reader with the deltas it read: past FOLD_AFTER, one fold at a time per tally and
 * process, then the dead rows it left are cleared (autovacuum may be off). Never inside a scope: its
 * transaction is about to roll back (a panel tried, lib/db-scope.ts).
 */
export function foldIfMany(tally: Tally, deltas: number): void {
  if (currentScope() || deltas <= FOLD_AFTER || folding.has(tally)) return;
  folding.add(tally);
  compactTallies(tally)
    .then(() => db().$executeRawUnsafe(`VACUUM ${TALLIES[tally].tables.join(", ")}`))
    .catch((e) => console.error(`folding the ${tally} tallies failed:`, e))
    .finally(() => folding.delete(tally));
}

/** Recomputes every tally from the rows. */
export async function rebuildTallies(): Promise<void> {
  for (const { rebuild } of Object.values(TALLIES)) await db().$executeRawUnsafe(`SELECT ${rebuild}()`);
}
