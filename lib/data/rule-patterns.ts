import "server-only";
// Whether a rule's pattern may run: PostgreSQL compiles it, and an invalid one is refused with its
// reason. Compiling is quick whatever the pattern; matching is what may run away, and runs under a
// time limit on both databases (lib/data/pattern-hits.ts).
import type { Sql } from "./sql";

/**
 * Why PostgreSQL refuses this pattern, or null when it compiles. Tried in a savepoint, so a refusal
 * leaves the caller's transaction usable.
 */
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
