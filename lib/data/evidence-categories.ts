import "server-only";
// Each evidence item's category: that of the first enabled command rule in force that hits its step,
// set when the evidence is computed and again when a rule is written, under the rules' time limit.
import type { Category } from "@/lib/domain/verdicts";
import { AppError } from "@/lib/errors";
import { boundScan, RULE_TEXT, RULES_IN_FORCE, ranPastLimit, ruleMatches, SCAN_TIMEOUT_MS } from "./rule-sql";
import type { Sql } from "./sql";

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
  await underScanLimit(sql, () => recategorize(sql));
}

/**
 * Runs `work` with the rules' patterns under the scan's time limit, then the caller's own limit
 * again: a command rule that runs away while the evidence is sorted is refused with why, not left to
 * hold the save, or the import, without end.
 */
export async function underScanLimit<T>(sql: Sql, work: () => Promise<T>): Promise<T> {
  const [{ before }] = (await sql.query<{ before: string }>(
    `SELECT current_setting('statement_timeout') AS before`,
  )) as [{ before: string }];
  await boundScan(sql);
  let out: T;
  try {
    out = await work();
  } catch (e) {
    if (!ranPastLimit(e)) throw e;
    throw new AppError(
      "BAD_INPUT",
      `pattern: sorting the evidence by the rules ran past ${SCAN_TIMEOUT_MS / 1000} s: make the pattern more specific`,
      "pattern",
    );
  }
  await sql.query(`SELECT set_config('statement_timeout', $1, true)`, [before]);
  return out;
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
