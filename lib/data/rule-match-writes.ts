import "server-only";
// One scan step's matches, found within its time limit and written as rule_match rows.
import { recategorizeEvidence } from "./evidence-categories";
import { findHits, type Hit, type PatternRule } from "./pattern-hits";
import { ranPastLimit } from "./rule-sql";
import type { Sql } from "./sql";

/** A step's hits, and the rules that ran past the limit on their own (none: the hits are whole). */
export type Found = { hits: Hit[]; slow: number[] };

/** The hits of `rules` in `ids`; past `limitMs`, each rule alone, those still past it `slow`. */
export async function hitsWithinLimit(
  rules: readonly PatternRule[],
  ids: readonly number[],
  limitMs: number,
): Promise<Found> {
  try {
    return { hits: await findHits(rules, ids, limitMs), slow: [] };
  } catch (e) {
    if (!ranPastLimit(e) || rules.length === 1) {
      if (ranPastLimit(e)) return { hits: [], slow: [rules[0]!.id] };
      throw e;
    }
  }
  const found: Found = { hits: [], slow: [] };
  for (const rule of rules)
    try {
      found.hits.push(...(await findHits([rule], ids, limitMs)));
    } catch (e) {
      if (!ranPastLimit(e)) throw e;
      found.slow.push(rule.id);
    }
  return found;
}

/** Stops rules for good (decision 47): marked with why, their hits dropped, the evidence they sorted sorted again. */
export async function stopRules(sql: Sql, ruleIds: readonly number[], ids: readonly number[], limitMs: number) {
  const gone = await sql.query<{ id: number }>(
    `WITH d AS (DELETE FROM rule_match WHERE "ruleId" = ANY($1::int[]) RETURNING "trajectoryId")
     SELECT DISTINCT "trajectoryId" AS id FROM d`,
    [ruleIds],
  );
  await sql.query(`UPDATE rule_scan SET failure = $2, "failedAt" = now() WHERE "ruleId" = ANY($1::int[])`, [
    ruleIds,
    `its pattern ran past the scan's limit of ${limitMs / 1000} s on trajectories ${ids[0]}–${ids.at(-1)}`,
  ]);
  await recategorizeEvidence(
    sql,
    gone.map((g) => g.id),
  );
}

/** Writes hits as rows of rule_match (those of trajectories `ids` only), and sorts their evidence again. */
export async function writeHits(sql: Sql, hits: readonly Hit[], ids: readonly number[]): Promise<void> {
  const kept = new Set(ids);
  const rows = hits.filter((h) => kept.has(h.trajectoryId));
  if (rows.length)
    await sql.query(
      `INSERT INTO rule_match ("ruleId", "trajectoryId", step)
       SELECT DISTINCT * FROM unnest($1::int[], $2::int[], $3::int[]) ON CONFLICT DO NOTHING`,
      [rows.map((h) => h.ruleId), rows.map((h) => h.trajectoryId), rows.map((h) => h.step)],
    );
  await recategorizeEvidence(sql, ids);
}

/** Carries hits to a new version in force that reads the same texts the same way; answers how many. */
export async function carryHits(sql: Sql): Promise<number> {
  const pairs = await sql.query<{ id: number; before: number }>(
    `SELECT v.id, p.id AS before FROM rules_in_force() v
       JOIN LATERAL (SELECT * FROM rule p WHERE p.name = v.name AND (p."createdAt", p.id) < (v."createdAt", v.id)
                     ORDER BY p."createdAt" DESC, p.id DESC LIMIT 1) p ON true
      WHERE v.enabled AND NOT EXISTS (SELECT FROM rule_scan s WHERE s."ruleId" = v.id)
        AND (p."on", p.pattern, p."ignoreCase") = (v."on", v.pattern, v."ignoreCase")
        AND EXISTS (SELECT FROM rule_scan s WHERE s."ruleId" = p.id)`,
  );
  for (const { id, before } of pairs) {
    // A stop for good goes with it too: the same pattern on the same texts would run past its limit again.
    await sql.query(
      `INSERT INTO rule_scan ("ruleId", through, failure, "failedAt")
       SELECT $1, through, failure, "failedAt" FROM rule_scan WHERE "ruleId" = $2`,
      [id, before],
    );
    const carried = await sql.query<{ id: number }>(
      `WITH c AS (INSERT INTO rule_match ("ruleId", "trajectoryId", step)
                  SELECT $1, "trajectoryId", step FROM rule_match WHERE "ruleId" = $2
                  ON CONFLICT DO NOTHING RETURNING "trajectoryId")
       SELECT DISTINCT "trajectoryId" AS id FROM c`,
      [id, before],
    );
    await recategorizeEvidence(
      sql,
      carried.map((c) => c.id),
    );
  }
  return pairs.length;
}
