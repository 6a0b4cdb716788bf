import "server-only";
// One step's matches of the rules' scan (lib/data/rule-matches.ts): the rows of rule_match that some
// rules' patterns find in some trajectories' texts, written within the scan's time limit. A rule that
// runs past it is found and stopped for good.
import { RULE_ON, type RuleOn } from "@/lib/domain/rules";
import { patternProblem } from "./rule-patterns";
import { RULE_TEXT, ranPastLimit, ruleMatches, SCAN_TIMEOUT_MS, TEXT_SOURCE } from "./rule-sql";
import type { Sql } from "./sql";

/**
 * Whether a pattern can stand as one branch of an alternation: no back-reference (its number would
 * name another group) and no embedded options or director (PostgreSQL takes them only at the head
 * of a whole pattern). Others are matched on their own.
 */
const branchable = (pattern: string) => !/\\[1-9]/.test(pattern) && !/\(\?[a-z]|^\*\*\*/.test(pattern);

/**
 * Writes the matches of rules `ruleIds` in trajectories `ids`. Each rule's own pattern decides; but
 * most texts match no rule, and a regular expression is dear to run (sixteen rules on 4,000 commands:
 * 64,000 runs, 0.3 s), so a text is first matched once against all of its kind's patterns as one
 * alternation, ignoring case (which finds all that any of them finds, and more), and only the texts
 * it keeps are matched rule by rule.
 */
async function writeMatches(sql: Sql, ruleIds: readonly number[], ids: readonly number[]): Promise<void> {
  const rules = await sql.query<{ id: number; on: RuleOn; pattern: string }>(
    `SELECT id, "on", pattern FROM rule WHERE id = ANY($1::int[])`,
    [ruleIds],
  );
  for (const on of RULE_ON) {
    const own = rules.filter((r) => r.on === on);
    if (!own.length) continue;
    const { table, where } = TEXT_SOURCE[on];
    const text = RULE_TEXT[on]("x");
    const joined = own.filter((r) => branchable(r.pattern));
    const alone = own.filter((r) => !branchable(r.pattern));
    const union = joined.map((r) => `(?:${r.pattern})`).join("|");
    if (joined.length && (await patternProblem(sql, union, true)) === null)
      await sql.query(
        `INSERT INTO rule_match ("ruleId", "trajectoryId", step)
         SELECT DISTINCT l.id, c."trajectoryId", c.step
           FROM (SELECT x."trajectoryId", x.step, ${text} AS text FROM ${table}
                  WHERE ${where} AND x."trajectoryId" = ANY($1::int[]) AND ${text} ~* $2 OFFSET 0) c
           JOIN rule l ON l.id = ANY($3::int[]) AND ${ruleMatches("l", "c.text")}
         ON CONFLICT DO NOTHING`,
        [ids, union, joined.map((r) => r.id)],
      );
    else alone.push(...joined);
    if (alone.length)
      await sql.query(
        `INSERT INTO rule_match ("ruleId", "trajectoryId", step)
         SELECT DISTINCT l.id, x."trajectoryId", x.step FROM rule l JOIN ${table}
             ON ${where} AND x."trajectoryId" = ANY($1::int[]) AND ${ruleMatches("l", text)}
          WHERE l.id = ANY($2::int[])
         ON CONFLICT DO NOTHING`,
        [ids, alone.map((r) => r.id)],
      );
  }
}

/**
 * Writes the matches of rules `ruleIds` in trajectories `ids`, or, when that runs past the scan's time
 * limit, finds which rules do (each tried alone on the same trajectories) and stops them for good:
 * marked with why, never read again, left out of timelines and frozen reports, named on the Rules
 * page. Answers whether the matches were written (else the step is taken again without those rules).
 */
export async function withinLimit(
  sql: Sql,
  ruleIds: readonly number[],
  ids: readonly number[],
  limitMs = SCAN_TIMEOUT_MS,
): Promise<boolean> {
  const tried = async (rules: readonly number[]) => {
    await sql.query(`SAVEPOINT rule_scan_step`);
    try {
      await writeMatches(sql, rules, ids);
      await sql.query(`RELEASE SAVEPOINT rule_scan_step`);
      return true;
    } catch (e) {
      await sql.query(`ROLLBACK TO SAVEPOINT rule_scan_step`);
      if (!ranPastLimit(e)) throw e;
      return false;
    }
  };
  if (await tried(ruleIds)) return true;
  const slow: number[] = [];
  for (const id of ruleIds) if (!(await tried([id]))) slow.push(id);
  // What it found before it ran away goes too: a stopped rule finds nothing, anywhere.
  await sql.query(`DELETE FROM rule_match WHERE "ruleId" = ANY($1::int[])`, [slow.length ? slow : ruleIds]);
  await sql.query(`UPDATE rule_scan SET failure = $2, "failedAt" = now() WHERE "ruleId" = ANY($1::int[])`, [
    slow.length ? slow : ruleIds,
    `its pattern ran past the scan's limit of ${limitMs / 1000} s on trajectories ${ids[0]}–${ids.at(-1)}`,
  ]);
  return false;
}
