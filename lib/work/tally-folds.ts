import "server-only";
// The running tallies the database keeps (decisions 37 and 39): writers append signed deltas, a
// reader that reads many folds them into base rows in the background, and a rebuild recomputes them
// from the rows (`npm run cli -- tallies rebuild`, for a database restored from a dump).
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { currentScope } from "@/lib/db/scope";

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

/** Every table of the kept tallies. */
export const TALLY_TABLES: readonly string[] = Object.values(TALLIES).flatMap((t) => t.tables);

/** Deltas read past which a reader folds them into the base rows (in the background). */
const FOLD_AFTER = 500;

/**
 * How long a fold may wait for a lock (another process's fold, a VACUUM) and run in all. A fold is
 * background work: past either it gives up, and the next reader to find many deltas tries again.
 * Without them a fold that never ended would stop every later fold of its process (`folding`).
 */
export const FOLD_LIMITS = { lockMs: 5_000, statementMs: 60_000 };

/**
 * Runs maintenance statements within `limits`: on PostgreSQL on a pooled connection of their own
 * with the limits set for it (and reset before it goes back); on the embedded database, whose one
 * connection nothing else holds a lock on meanwhile, through Prisma.
 */
async function maintain(statements: readonly string[], limits: typeof FOLD_LIMITS): Promise<void> {
  const { pool, prisma } = currentDb();
  if (!pool) {
    for (const s of statements) await prisma.$executeRawUnsafe(s);
    return;
  }
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(`SET lock_timeout = ${limits.lockMs}; SET statement_timeout = ${limits.statementMs}`);
    for (const s of statements) await client.query(s);
  } finally {
    // A connection whose settings could not be reset is closed rather than lent out with them.
    await client.query("RESET lock_timeout; RESET statement_timeout").catch((e: Error) => {
      broken = e;
    });
    client.release(broken);
  }
}

/** Folds a tally's deltas into its base rows (the figures do not change). */
export async function compactTallies(tally: Tally, limits = FOLD_LIMITS): Promise<void> {
  await maintain([`SELECT ${TALLIES[tally].fold}()`], limits);
}

/** Folds a tally's deltas, then clears the dead rows the fold left (autovacuum may be off). */
export async function foldTallies(tally: Tally, limits = FOLD_LIMITS): Promise<void> {
  await maintain([`SELECT ${TALLIES[tally].fold}()`, `VACUUM ${TALLIES[tally].tables.join(", ")}`], limits);
}

const folding = new Set<Tally>();

/**
 * Called by a reader with the deltas it read: past FOLD_AFTER, one fold at a time per tally and
 * process, in the background. Never inside a scope: its transaction is about to roll back (a panel
 * tried, lib/db/scope.ts).
 */
export function foldIfMany(tally: Tally, deltas: number): void {
  if (currentScope() || deltas <= FOLD_AFTER || folding.has(tally)) return;
  folding.add(tally);
  foldTallies(tally)
    .catch((e) => console.error(`folding the ${tally} tallies failed (the next reader tries again):`, e))
    .finally(() => folding.delete(tally));
}

/** Recomputes every tally from the rows. */
export async function rebuildTallies(): Promise<void> {
  for (const { rebuild } of Object.values(TALLIES)) await db().$executeRawUnsafe(`SELECT ${rebuild}()`);
}
