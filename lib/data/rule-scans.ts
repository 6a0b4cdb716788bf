import "server-only";
// Which trajectories rules fire on: in force from kept hits, being tried from one time-limited scan.
import { LRUCache } from "lru-cache";
import type { RuleOn } from "@/lib/domain/rules";
import { AppError } from "@/lib/errors";
import { type Hit, onPatternThread, threadHits } from "./pattern-hits";
import { ruleHitsCoverage } from "./rule-matches";
import { patternProblem } from "./rule-patterns";
import { boundScan, RULE_TEXT, ranPastLimit, SCAN_TIMEOUT_MS, TEXT_SOURCE } from "./rule-sql";
import { type Sql, transaction } from "./sql";
import { inTurn } from "./tried-queue";

/** Fired ids, remembered by what chose them and the data versions (rules, trajectories, the kept hits). */
const firedCache = new LRUCache<string, number[]>({ max: 32 });

/** What chooses the fired trajectories: a rule in force by name, a category of enabled ones, a rule tried. */
export type FiredBy = { rule?: string; category?: string; tried?: TriedRule };

/** Trajectories the named rule, a category's enabled rules, or a tried rule fire on (callers wait for the scan). */
export async function firedIds(by: FiredBy): Promise<number[]> {
  const { versions } = await ruleHitsCoverage();
  const key = JSON.stringify([by.rule ?? null, by.category ?? null, by.tried ?? null, versions]);
  const cached = firedCache.get(key);
  if (cached) return cached;
  const ids = by.tried ? await triedIds(by.tried) : await inForceIds(by.rule, by.category);
  firedCache.set(key, ids);
  return ids;
}

async function inForceIds(rule?: string, category?: string): Promise<number[]> {
  const rows = await transaction((sql) =>
    sql.query<{ id: number }>(
      `SELECT DISTINCT m."trajectoryId" AS id FROM rule_match m JOIN rules_in_force() l ON l.id = m."ruleId"
        WHERE (CASE WHEN $1::text IS NULL THEN l.enabled ELSE l.name = $1 END)
          AND ($2::text IS NULL OR $2 = 'any' OR l.category = $2)`,
      [rule ?? null, category ?? null],
    ),
  );
  return rows.map((r) => r.id);
}

/** The matched rows' keys (an output may be megabytes), kept for the transaction so texts are read once. */
const matches = (on: RuleOn, ignoreCase: boolean) => {
  const { table, where, a, b } = TEXT_SOURCE[on];
  return `SELECT x."trajectoryId", x.step, ${a}, ${b} FROM ${table}
    WHERE ${where} AND (${RULE_TEXT[on]("x")} ${ignoreCase ? "~*" : "~"} $1) = true
      AND ($2::int[] IS NULL OR x."trajectoryId" = ANY($2::int[]))`;
};

/** One scan into a table dropped at the transaction's end; on the embedded database found before it (`found`). */
async function scan(sql: Sql, rule: TriedRule, ids: number[] | null, found: Hit[] | null): Promise<void> {
  await sql.query(`DROP TABLE IF EXISTS pg_temp.rule_hit`);
  await sql.query(`CREATE TEMP TABLE rule_hit ("trajectoryId" int, step int, a int, b int) ON COMMIT DROP`);
  if (!found) await sql.query(`INSERT INTO rule_hit ${matches(rule.on, rule.ignoreCase)}`, [rule.pattern, ids]);
  else if (found.length)
    await sql.copy(
      "rule_hit",
      ["trajectoryId", "step", "a", "b"],
      found.map((h) => [h.trajectoryId, h.step, h.a, h.b]),
    );
}

/** Why PostgreSQL refuses a rule being tried's pattern, or null when it compiles. */
export const triedRuleProblem = (rule: TriedRule): Promise<string | null> =>
  transaction((sql) => patternProblem(sql, rule.pattern, rule.ignoreCase));

/** A rule being tried: what it reads, its pattern, its case. */
export type TriedRule = { on: RuleOn; pattern: string; ignoreCase: boolean };

/** Runs `work` over the rows a tried rule matches (`rule_hit`); bad patterns and slow scans are refused. */
export async function withTriedRule<T>(
  rule: TriedRule,
  ids: number[] | null,
  timeoutMs: number,
  work: (sql: Sql, pattern: string, flags: string) => Promise<T>,
  /** Whose try it is: each person's wait their turn (lib/data/tried-queue.ts). */
  who = "anyone",
): Promise<T> {
  return inTurn(who, () => tried(rule, ids, timeoutMs, work));
}

async function tried<T>(
  rule: TriedRule,
  ids: number[] | null,
  timeoutMs: number,
  work: (sql: Sql, pattern: string, flags: string) => Promise<T>,
): Promise<T> {
  const problem = await triedRuleProblem(rule);
  if (problem) throw new AppError("BAD_INPUT", `pattern: ${problem}`, "pattern");
  // Case folded by ~* and the flags, never a prefix: (?i) before a pattern's own options was an error.
  try {
    const found = onPatternThread() ? await threadHits([{ id: 0, ...rule }], ids, timeoutMs) : null;
    return await transaction(async (sql) => {
      await boundScan(sql, timeoutMs);
      await scan(sql, rule, ids, found);
      return work(sql, rule.pattern, rule.ignoreCase ? "i" : "");
    });
  } catch (e) {
    if (ranPastLimit(e))
      throw new AppError(
        "BAD_INPUT",
        `the scan ran longer than ${Math.round(timeoutMs / 1000)} s and was stopped: make the pattern more specific`,
        "pattern",
      );
    throw e;
  }
}

/** The trajectories a rule being tried fires on (the list's filter for the preview's cells). */
async function triedIds(rule: TriedRule): Promise<number[]> {
  const rows = await withTriedRule(rule, null, SCAN_TIMEOUT_MS, (sql) =>
    sql.query<{ id: number }>(`SELECT DISTINCT "trajectoryId" AS id FROM rule_hit`),
  );
  return rows.map((r) => r.id);
}
