import "server-only";
// Whether a rule's pattern may run: PostgreSQL compiles it (an invalid one is refused with its
// reason), and on the embedded database, which cannot stop a statement once it runs, what may run
// for minutes is refused before it does (decision 47).
import { currentDb } from "@/lib/db-connect";
import { backReference } from "@/lib/domain/rules";
import type { Sql } from "./sql";

/**
 * Why PostgreSQL refuses this pattern, or null when it compiles. Tried in a savepoint, so a refusal
 * leaves the caller's transaction usable. On the embedded database, which cannot stop a statement
 * once it runs (it runs in the app's own thread), a back-reference is refused too: with one, a
 * pattern may run for minutes and hold every page meanwhile.
 */
export async function patternProblem(sql: Sql, pattern: string, ignoreCase: boolean): Promise<string | null> {
  const backRef = currentDb().target.kind === "pglite" ? backReference(pattern) : null;
  if (backRef)
    return (
      `the back-reference ${backRef} can make a pattern run for minutes, and the embedded database cannot ` +
      "stop one once it runs: write it without, or use PostgreSQL (DATABASE_URL)"
    );
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
