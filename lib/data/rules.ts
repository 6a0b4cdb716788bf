import "server-only";
// Suspect-step rules (lib/domain/rules.ts): every version kept, the newest of each name in force.
// Patterns are PostgreSQL regular expressions: the database compiles them (an invalid one is refused
// with its reason) and runs them, for the marks on one trajectory and the scan over a study alike.
import type { Actor } from "@/lib/auth/permissions";
import { assertCan } from "@/lib/auth/permissions";
import { RULE_ON, type Rule, type RuleInput, RuleInputSchema, type RuleOn, SCAN_TIMEOUT_MS } from "@/lib/domain/rules";
import type { Category } from "@/lib/domain/verdicts";
import { AppError } from "@/lib/errors";
import { patternProblem } from "./rule-patterns";
import { type Sql, transaction } from "./sql";

/** Each rule's version in force (the newest by createdAt, then id), as a subquery. */
export const RULES_IN_FORCE = `(SELECT DISTINCT ON (name) * FROM rule ORDER BY name, "createdAt" DESC, id DESC)`;

/**
 * The rule versions the scan reads (lib/data/rule-matches.ts), as a subquery of ids: those in force,
 * enabled, and not stopped for good by their time limit. A disabled version is never read.
 */
export const RULES_SCANNED = `(SELECT r.id FROM ${RULES_IN_FORCE} r WHERE r.enabled AND NOT EXISTS (
  SELECT FROM rule_scan f WHERE f."ruleId" = r.id AND f.failure IS NOT NULL))`;

/** Whether rule `r` (an alias of a rule row) matches the SQL text `text`: its pattern, its case. */
export const ruleMatches = (r: string, text: string) =>
  `(CASE WHEN ${r}."ignoreCase" THEN ${text} ~* ${r}.pattern ELSE ${text} ~ ${r}.pattern END)`;

/** The texts a rule reads, by `on`: a tool call's input, a tool message's content, an assistant's words. */
export const RULE_TEXT = {
  command: (c: string) => `${c}.input`,
  output: (m: string) => `${m}.content`,
  reasoning: (m: string) => `(coalesce(${m}.reasoning, '') || E'\\n' || ${m}.content)`,
} as const;

/**
 * Where each kind of text is, as a table `x` with a trajectory and a step: the rows it reads and the
 * rest of each row's key (as two integers) after its trajectory and step.
 */
export const TEXT_SOURCE: Record<RuleOn, { table: string; where: string; key: string }> = {
  command: { table: "tool_call x", where: "true", key: `x."messageSeq", x.seq` },
  output: { table: "message x", where: "x.role = 'tool'", key: "x.seq, 0" },
  reasoning: { table: "message x", where: "x.role = 'assistant'", key: "x.seq, 0" },
};

/**
 * Every hit of the rules in force that `chosen` (a condition on rule `l` and text `x`) keeps, as SQL
 * rows (ruleId, name, category, why, rank, id: the trajectory, step): the marks on one trajectory read
 * it; the hits kept of every rule (lib/data/rule-matches.ts) are what it finds over the study.
 */
export const hitsSql = (chosen: string) =>
  RULE_ON.map(
    (on) =>
      `SELECT l.id AS "ruleId", l.name, l.category, l.why, l.rank, x."trajectoryId" AS id, x.step
         FROM ${RULES_IN_FORCE} l JOIN ${TEXT_SOURCE[on].table} ON l."on" = '${on}' AND ${TEXT_SOURCE[on].where}
          AND ${chosen} AND ${ruleMatches("l", RULE_TEXT[on]("x"))}`,
  ).join(" UNION ALL ");

export { SCAN_TIMEOUT_MS };

/** Bounds the rest of the transaction's statements: a pattern that runs away never holds a connection. */
export async function boundScan(sql: Sql, ms = SCAN_TIMEOUT_MS): Promise<void> {
  await sql.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(ms))}`);
}

const RULE_COLUMNS = `r.id, r.name, r.category, r."on", r.pattern, r."ignoreCase", r.why, r.enabled, r."createdAt",
  u.handle AS "createdBy", (SELECT f.failure FROM rule_scan f WHERE f."ruleId" = r.id) AS stopped`;
const toRule = (r: Rule): Rule => ({ ...r, createdAt: new Date(r.createdAt) });

/** The rules in force (enabled or not), in the order marks are listed: the built-in order, then by name. */
export async function listRules(sql: Sql): Promise<Rule[]> {
  const rows = await sql.query<Rule>(
    `SELECT ${RULE_COLUMNS} FROM ${RULES_IN_FORCE} r LEFT JOIN "user" u ON u.id = r."createdById"
      ORDER BY r.rank, r.name`,
  );
  return rows.map(toRule);
}

export const rulesNow = (): Promise<Rule[]> => transaction(listRules);

/** The enabled rules in force the scan stopped for good, with why: what timelines and frozen reports leave out. */
export async function stoppedRules(): Promise<Array<{ name: string; failure: string }>> {
  return transaction((sql) =>
    sql.query<{ name: string; failure: string }>(
      `SELECT l.name, f.failure FROM ${RULES_IN_FORCE} l JOIN rule_scan f ON f."ruleId" = l.id
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
export function parseRule(input: unknown): RuleInput {
  const parsed = RuleInputSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "rule");
  throw new AppError("BAD_INPUT", `${field}: ${issue.message}`, field);
}

/**
 * Writes a new version of a rule (a new rule, or a change of one); the pattern must compile. Its
 * time is later than every version before it, so it is the one in force.
 */
export async function writeRuleIn(sql: Sql, actor: Actor | null, rule: RuleInput): Promise<void> {
  const problem = await patternProblem(sql, rule.pattern, rule.ignore_case);
  if (problem) throw new AppError("BAD_INPUT", `pattern: ${problem}`, "pattern");
  await insertRuleVersion(sql, actor, rule);
  await refreshEvidenceCategories(sql);
}

/** The advisory lock a step of the rules' scan holds (lib/data/rule-matches.ts). */
export const RULE_SCAN_LOCK = 7_312_026;

/**
 * A version row's kept hits (lib/data/rule-matches.ts), once it is written: a new version in force,
 * enabled, that reads the same texts with the same pattern and case as the one it follows (its
 * category or its words changed) fires where that one did, so its hits and its place in the
 * scan are carried over instead of scanned again; a version changed in place (an import of a version
 * at the same time) loses its hits and is scanned again. Under the scan's lock (insertRuleVersion).
 */
async function settleHits(sql: Sql, id: number, inserted: boolean): Promise<void> {
  if (!inserted) {
    await sql.query(`DELETE FROM rule_match WHERE "ruleId" = $1`, [id]);
    await sql.query(`DELETE FROM rule_scan WHERE "ruleId" = $1`, [id]);
    return;
  }
  // The version just before it, when this one is now in force and reads as that one did.
  const [before] = await sql.query<{ id: number }>(
    `SELECT p.id FROM rule v
       JOIN LATERAL (SELECT * FROM rule p WHERE p.name = v.name AND (p."createdAt", p.id) < (v."createdAt", v.id)
                     ORDER BY p."createdAt" DESC, p.id DESC LIMIT 1) p ON true
     WHERE v.id = $1 AND v.enabled AND v.id IN (SELECT id FROM ${RULES_IN_FORCE} r)
       AND (p."on", p.pattern, p."ignoreCase") = (v."on", v.pattern, v."ignoreCase")
       AND EXISTS (SELECT 1 FROM rule_scan s WHERE s."ruleId" = p.id)`,
    [id],
  );
  if (!before) return;
  // A stop for good goes with it too: the same pattern on the same texts would run past its limit again.
  await sql.query(
    `INSERT INTO rule_scan ("ruleId", through, failure, "failedAt")
     SELECT $1, through, failure, "failedAt" FROM rule_scan WHERE "ruleId" = $2`,
    [id, before.id],
  );
  await sql.query(
    `INSERT INTO rule_match ("ruleId", "trajectoryId", step) SELECT $1, "trajectoryId", step FROM rule_match
      WHERE "ruleId" = $2`,
    [id, before.id],
  );
}

/** A version row: at `createdAt`, or just after the rule's newest version (and not before now). */
export async function insertRuleVersion(
  sql: Sql,
  actor: Actor | null,
  rule: RuleInput,
  opts: { importId?: number | null; createdAt?: Date } = {},
): Promise<void> {
  // The scan's lock first, held until the transaction ends: no step of the scan runs while a rule row
  // is written (a step's writes check rule rows, and must never wait for one being written).
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

/** Each of these steps' category by the first enabled command rule in force that hits it ("trajectory:step"). */
export async function stepCategories(
  sql: Sql,
  steps: ReadonlyArray<{ trajectoryId: number; step: number }>,
): Promise<Map<string, Category>> {
  if (!steps.length) return new Map();
  const rows = await sql.query<{ trajectoryId: number; step: number; category: Category }>(
    `SELECT DISTINCT ON (c."trajectoryId", c.step) c."trajectoryId", c.step, l.category
       FROM (SELECT DISTINCT * FROM unnest($1::int[], $2::int[]) AS s(t, step)) s
       JOIN tool_call c ON c."trajectoryId" = s.t AND c.step = s.step
       JOIN ${RULES_IN_FORCE} l ON l.enabled AND l."on" = 'command' AND ${ruleMatches("l", RULE_TEXT.command("c"))}
      ORDER BY c."trajectoryId", c.step, l.rank, l.name`,
    [steps.map((s) => s.trajectoryId), steps.map((s) => s.step)],
  );
  return new Map(rows.map((r) => [`${r.trajectoryId}:${r.step}`, r.category]));
}

/**
 * Each evidence item's category, after a rule changed: the evidence keeps its step's category by the
 * rules in force (stepCategories), set when it is computed.
 */
export async function refreshEvidenceCategories(sql: Sql): Promise<void> {
  // Under the scan's time limit, then the caller's own again: a command rule that runs away is
  // refused with why, not left to hold the save (or the import) without end.
  const [{ before }] = (await sql.query<{ before: string }>(
    `SELECT current_setting('statement_timeout') AS before`,
  )) as [{ before: string }];
  await boundScan(sql);
  try {
    await recategorize(sql);
  } catch (e) {
    if ((e as { code?: string }).code !== "57014") throw e;
    throw new AppError(
      "BAD_INPUT",
      `pattern: sorting the evidence by the rules ran past ${SCAN_TIMEOUT_MS / 1000} s: make the pattern more specific`,
      "pattern",
    );
  }
  await sql.query(`SELECT set_config('statement_timeout', $1, true)`, [before]);
}

async function recategorize(sql: Sql): Promise<void> {
  const withEvidence = await sql.query<{ id: number }>(`SELECT DISTINCT "trajectoryId" AS id FROM evidence`);
  const CHUNK = 500;
  for (let i = 0; i < withEvidence.length; i += CHUNK) {
    const ids = withEvidence.slice(i, i + CHUNK).map((r) => r.id);
    const steps = await sql.query<{ trajectoryId: number; step: number }>(
      `SELECT DISTINCT "trajectoryId", step FROM evidence WHERE "trajectoryId" = ANY($1::int[])`,
      [ids],
    );
    const categories = await stepCategories(sql, steps);
    await sql.query(
      `UPDATE evidence e SET category = c.category
         FROM (SELECT split_part(k, ':', 1)::int AS t, split_part(k, ':', 2)::int AS step, v AS category
                 FROM jsonb_each_text($2::jsonb) AS x(k, v)) c
        WHERE e."trajectoryId" = ANY($1::int[]) AND e."trajectoryId" = c.t AND e.step = c.step
          AND e.category IS DISTINCT FROM c.category`,
      [ids, JSON.stringify(Object.fromEntries(categories))],
    );
    await sql.query(
      `UPDATE evidence SET category = NULL WHERE "trajectoryId" = ANY($1::int[]) AND category IS NOT NULL
          AND NOT (("trajectoryId" || ':' || step) = ANY($2::text[]))`,
      [ids, [...categories.keys()]],
    );
  }
}
