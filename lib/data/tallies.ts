import "server-only";
// The running tallies the database keeps (decisions 37 and 39): writers append signed deltas, a fold
// moves them into base rows, and a rebuild recomputes them from the rows (`npm run cli -- tallies
// rebuild`, for a database restored from a dump). When to fold is lib/work/tally-folds.ts's.
import { currentDb } from "@/lib/db/connect";
import { statement } from "./sql";

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

/**
 * How long a fold may wait for a lock (another process's fold, a VACUUM) and run in all. A fold is
 * background work: past either it gives up, and the next reader to find many deltas tries again.
 * Without them a fold that never ended would stop every later fold of its process (`folding`).
 */
export const FOLD_LIMITS = { lockMs: 5_000, statementMs: 60_000 };

/**
 * Runs maintenance statements within `limits`: on PostgreSQL on a pooled connection of their own
 * with the limits set for it (and reset before it goes back); on the embedded database, whose one
 * connection nothing else holds a lock on meanwhile, as they are.
 */
async function maintain(statements: readonly string[], limits: typeof FOLD_LIMITS): Promise<void> {
  const { pool } = currentDb();
  if (!pool) {
    for (const s of statements) await statement(s);
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

/** Recomputes every tally from the rows. */
export async function rebuildTallies(): Promise<void> {
  for (const { rebuild } of Object.values(TALLIES)) await statement(`SELECT ${rebuild}()`);
}
