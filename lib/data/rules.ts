import "server-only";
// Suspect-step rules: every version kept, the newest of each name in force (decision 35).
import type { Actor } from "@/lib/auth/permissions";
import { assertCan } from "@/lib/auth/permissions";
import { type Rule, type RuleInput, RuleInputSchema } from "@/lib/domain/rules";
import { AppError, parsedOrRefused } from "@/lib/errors";
import { undefinedCategories, unknownCategory } from "./categories";
import { patternProblem } from "./rule-patterns";

import { type Sql, transaction } from "./sql";

const RULE_COLUMNS = `r.id, r.name, r.category, r."on", r.pattern, r."ignoreCase", r.why, r.enabled, r."createdAt",
  u.handle AS "createdBy", (SELECT f.failure FROM rule_scan f WHERE f."ruleId" = r.id) AS stopped`;
const toRule = (r: Rule): Rule => ({ ...r, createdAt: new Date(r.createdAt) });

/** The rules in force (enabled or not), in the order marks are listed: the built-in order, then by name. */
export async function listRules(sql: Sql): Promise<Rule[]> {
  const rows = await sql.query<Rule>(
    `SELECT ${RULE_COLUMNS} FROM rules_in_force() r LEFT JOIN "user" u ON u.id = r."createdById"
      ORDER BY r.rank, r.name`,
  );
  return rows.map(toRule);
}

export const rulesNow = (): Promise<Rule[]> => transaction(listRules);

/** The enabled rules in force the scan stopped for good, with why: what timelines and frozen reports leave out. */
export async function stoppedRules(): Promise<Array<{ name: string; failure: string }>> {
  return transaction((sql) =>
    sql.query<{ name: string; failure: string }>(
      `SELECT l.name, f.failure FROM rules_in_force() l JOIN rule_scan f ON f."ruleId" = l.id
        WHERE f.failure IS NOT NULL AND l.enabled ORDER BY l.name`,
    ),
  );
}

/** Every version of one rule, oldest first: its history. */
export const ruleHistory = (name: string): Promise<Rule[]> => transaction((sql) => ruleVersions(sql, name));

/** Every version of every rule (`export rules`), oldest first. */
export async function ruleVersions(sql: Sql, name?: string): Promise<Rule[]> {
  const rows = await sql.query<Rule>(
    `SELECT ${RULE_COLUMNS} FROM rule r LEFT JOIN "user" u ON u.id = r."createdById"
      ${name === undefined ? "" : "WHERE r.name = $1"} ORDER BY r.name, r."createdAt", r.id`,
    name === undefined ? [] : [name],
  );
  return rows.map(toRule);
}

/** A checked rule input, or the error naming its field. */
export const parseRule = (input: unknown): RuleInput => parsedOrRefused(RuleInputSchema, input, "rule");

/** Writes a new version of a rule, later than every version before it; the pattern must compile. */
export async function writeRuleIn(sql: Sql, actor: Actor | null, rule: RuleInput): Promise<void> {
  const unknown = await undefinedCategories(sql, [rule.category]);
  if (unknown.length) throw new AppError("BAD_INPUT", `category: ${unknownCategory(unknown[0]!)}`, "category");
  const problem = await patternProblem(sql, rule.pattern, rule.ignore_case);
  if (problem) throw new AppError("BAD_INPUT", `pattern: ${problem}`, "pattern");
  await insertRuleVersion(sql, actor, rule);
}

/** The advisory lock a step of the rules' scan holds (lib/data/rule-matches.ts). */
export const RULE_SCAN_LOCK = 7_312_026;

/** A version changed in place loses its hits and is scanned again; a new one's come from the scan (carryHits). */
async function settleHits(sql: Sql, id: number, inserted: boolean): Promise<void> {
  if (inserted) return;
  await sql.query(`DELETE FROM rule_match WHERE "ruleId" = $1`, [id]);
  await sql.query(`DELETE FROM rule_scan WHERE "ruleId" = $1`, [id]);
}

/** A version row: at `createdAt`, or just after the rule's newest version (and not before now). */
export async function insertRuleVersion(
  sql: Sql,
  actor: Actor | null,
  rule: RuleInput,
  opts: { importId?: number | null; createdAt?: Date } = {},
): Promise<void> {
  // The scan's lock first: no step runs while a rule row is written.
  await sql.query(`SELECT pg_advisory_xact_lock(${RULE_SCAN_LOCK})`);
  const written = await sql.query<{ id: number; inserted: boolean }>(
    `INSERT INTO rule (name, category, "on", pattern, "ignoreCase", why, enabled, "createdById", "importId",
       "createdAt", rank)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
       coalesce($10::timestamp, greatest(clock_timestamp()::timestamp,
         (SELECT max("createdAt") + interval '1 millisecond' FROM rule WHERE name = $1))),
       coalesce((SELECT min(rank) FROM rule WHERE name = $1), 1000))
     ON CONFLICT (name, "createdAt") DO UPDATE SET category = EXCLUDED.category, "on" = EXCLUDED."on",
       pattern = EXCLUDED.pattern, "ignoreCase" = EXCLUDED."ignoreCase", why = EXCLUDED.why,
       enabled = EXCLUDED.enabled, "importId" = EXCLUDED."importId"
       WHERE (rule."on", rule.pattern, rule."ignoreCase") IS DISTINCT FROM
             (EXCLUDED."on", EXCLUDED.pattern, EXCLUDED."ignoreCase")
          OR (rule.category, rule.why, rule.enabled) IS DISTINCT FROM
             (EXCLUDED.category, EXCLUDED.why, EXCLUDED.enabled)
     RETURNING id, (xmax = 0) AS inserted`,
    [
      rule.name,
      rule.category,
      rule.on,
      rule.pattern,
      rule.ignore_case,
      rule.why,
      rule.enabled,
      actor?.id ?? null,
      opts.importId ?? null,
      opts.createdAt?.toISOString() ?? null,
    ],
  );
  for (const w of written) await settleHits(sql, w.id, w.inserted);
}

/** Writes a new version of a rule, as a researcher (or the command line: actor null). */
export async function writeRule(actor: Actor | null, input: unknown): Promise<Rule> {
  if (actor) assertCan(actor, "rules:write");
  const rule = parseRule(input);
  return transaction(async (sql) => {
    await writeRuleIn(sql, actor, rule);
    return (await listRules(sql)).find((r) => r.name === rule.name)!;
  });
}

/** A new version of the rule in force with `enabled` changed. */
export async function setRuleEnabled(actor: Actor | null, name: string, enabled: boolean): Promise<Rule> {
  if (actor) assertCan(actor, "rules:write");
  return transaction(async (sql) => {
    const current = (await listRules(sql)).find((r) => r.name === name);
    if (!current) throw new AppError("BAD_INPUT", `no rule named "${name.slice(0, 100)}"`, "name");
    if (current.enabled !== enabled)
      await writeRuleIn(sql, actor, {
        name,
        category: current.category,
        on: current.on,
        pattern: current.pattern,
        ignore_case: current.ignoreCase,
        why: current.why,
        enabled,
      });
    return (await listRules(sql)).find((r) => r.name === name)!;
  });
}
