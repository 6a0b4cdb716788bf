import "server-only";
// The database's running tallies (decisions 37, 39): folding deltas into base rows, and rebuilding from the rows.
import { currentDb } from "@/lib/db/connect";
import { statement } from "./sql";

/** Each kept tally: the function that folds its deltas, and its tables (vacuumed after a fold). */
const TALLIES = {
  results: {
    fold: "compact_result_tallies",
    rebuild: "rebuild_result_tallies",
    tables: ["result_tally", "result_category_tally", "result_task_tally", "result_task_shape", "result_judge_tally"],
  },
  agreement: {
    fold: "compact_agreement_tallies",
    rebuild: "rebuild_agreement_tallies",
    tables: ["agreement_tally"],
  },
} as const;

export type Tally = keyof typeof TALLIES;

export const TALLY_TABLES: readonly string[] = Object.values(TALLIES).flatMap((t) => t.tables);

/** How long a fold may wait for a lock and run; past either it gives up and a later reader tries again. */
export const FOLD_LIMITS = { lockMs: 5_000, statementMs: 60_000 };

/** Runs maintenance statements within `limits`, on PostgreSQL on a connection of their own, reset after. */
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

export async function rebuildTallies(): Promise<void> {
  for (const { rebuild } of Object.values(TALLIES)) await statement(`SELECT ${rebuild}()`);
}
