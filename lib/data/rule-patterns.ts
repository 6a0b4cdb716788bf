import "server-only";
// Whether a rule's pattern compiles, by PostgreSQL; matching, which may run away, is time-limited (pattern-hits.ts).
import type { Sql } from "./sql";

/** Why PostgreSQL refuses this pattern (null: it compiles); in a savepoint, so the transaction stays usable. */
export async function patternProblem(sql: Sql, pattern: string, ignoreCase: boolean): Promise<string | null> {
  await sql.query(`SAVEPOINT pattern_check`);
  try {
    await sql.query(`SELECT '' ${ignoreCase ? "~*" : "~"} $1`, [pattern]);
    await sql.query(`RELEASE SAVEPOINT pattern_check`);
    return null;
  } catch (e) {
    await sql.query(`ROLLBACK TO SAVEPOINT pattern_check`);
    const message = e instanceof Error ? e.message : String(e);
    return message.replace(/^invalid regular expression: /, "");
  }
}
