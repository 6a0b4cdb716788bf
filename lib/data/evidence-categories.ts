import "server-only";

import type { Sql } from "./sql";

/** SQL over `s` (columns t, step): the category of the first command rule (by rank, then name) hitting the step. */
const FIRST_CATEGORY = (s: string) => `(SELECT l.category FROM rule_match m JOIN rule l ON l.id = m."ruleId"
   WHERE m."trajectoryId" = ${s}.t AND m.step = ${s}.step AND l."on" = 'command'
     AND l.id IN (SELECT id FROM rules_scanned())
   ORDER BY l.rank, l.name LIMIT 1)`;

/** Each of these steps' category by the kept hits of the command rules scanned ("trajectory:step"). */
export async function stepCategories(
  sql: Sql,
  steps: ReadonlyArray<{ trajectoryId: number; step: number }>,
): Promise<Map<string, string>> {
  if (!steps.length) return new Map();
  const rows = await sql.query<{ t: number; step: number; category: string | null }>(
    `SELECT s.t, s.step, ${FIRST_CATEGORY("s")} AS category
       FROM (SELECT DISTINCT * FROM unnest($1::int[], $2::int[]) AS s(t, step)) s`,
    [steps.map((s) => s.trajectoryId), steps.map((s) => s.step)],
  );
  return new Map(rows.filter((r) => r.category !== null).map((r) => [`${r.t}:${r.step}`, r.category!]));
}

/** Sorts the evidence of trajectories `ids` again by the kept hits (after the scan wrote or dropped some). */
export async function recategorizeEvidence(sql: Sql, ids: readonly number[]): Promise<void> {
  const CHUNK = 5_000;
  for (let i = 0; i < ids.length; i += CHUNK)
    await sql.query(
      `UPDATE evidence e SET category = c.category
         FROM (SELECT s.t, s.seq, ${FIRST_CATEGORY("s")} AS category
                 FROM (SELECT "trajectoryId" AS t, seq, step FROM evidence WHERE "trajectoryId" = ANY($1::int[])) s) c
        WHERE e."trajectoryId" = c.t AND e.seq = c.seq AND e.category IS DISTINCT FROM c.category`,
      [ids.slice(i, i + CHUNK)],
    );
}
