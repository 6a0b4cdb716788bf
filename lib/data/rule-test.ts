import "server-only";
// A rule tried over a study (`rules test`, the Rules page's preview): which trajectories it fires on
// and how many steps it hits, in one query the database runs under a time limit, then the figures of
// lib/domain/rule-test.ts. A rule need not be saved to be tried.
import { db } from "@/lib/db";
import { type RuleTestReport, ruleTestReport, type TestedTrajectory } from "@/lib/domain/rule-test";
import type { RuleOn } from "@/lib/domain/rules";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { CATEGORY_FIELDS, type Category, PANEL_FIELDS } from "@/lib/domain/verdicts";
import { AppError } from "@/lib/errors";
import { boundScan, patternProblem, SCAN_TIMEOUT_MS } from "./rules";
import { transaction } from "./sql";
import { trajectoryWhere } from "./trajectories";

export type RuleUnderTest = {
  name: string | null;
  category: Category;
  on: RuleOn;
  pattern: string;
  ignoreCase: boolean;
};
/** A step the rule hits: where, and the text around the first match (`before`, `match`, `after`). */
export type RuleSample = {
  trajectoryId: number;
  task: string;
  run: number;
  step: number;
  before: string;
  match: string;
  after: string;
};
export type RuleTest = { rule: RuleUnderTest; report: RuleTestReport; ms: number; samples: RuleSample[] };

/** The steps a rule hits, per trajectory: the texts it reads, by `on`. */
const HITS: Record<RuleOn, string> = {
  command: `SELECT c."trajectoryId" AS id, count(DISTINCT c.step)::int AS steps FROM tool_call c
             WHERE (c.input ~ $1) = true AND ($2::int[] IS NULL OR c."trajectoryId" = ANY($2::int[])) GROUP BY 1`,
  output: `SELECT m."trajectoryId" AS id, count(DISTINCT m.step)::int AS steps FROM message m
            WHERE m.role = 'tool' AND (m.content ~ $1) = true
              AND ($2::int[] IS NULL OR m."trajectoryId" = ANY($2::int[])) GROUP BY 1`,
  reasoning: `SELECT m."trajectoryId" AS id, count(DISTINCT m.step)::int AS steps FROM message m
               WHERE m.role = 'assistant' AND ((coalesce(m.reasoning, '') || E'\\n' || m.content) ~ $1) = true
                 AND ($2::int[] IS NULL OR m."trajectoryId" = ANY($2::int[])) GROUP BY 1`,
};

/** The texts a rule reads, with their trajectory and step, by `on`. */
const TEXTS: Record<RuleOn, string> = {
  command: `SELECT c."trajectoryId" AS id, c.step, c.input AS text FROM tool_call c`,
  output: `SELECT m."trajectoryId" AS id, m.step, m.content AS text FROM message m WHERE m.role = 'tool'`,
  reasoning: `SELECT m."trajectoryId" AS id, m.step, coalesce(m.reasoning, '') || E'\n' || m.content AS text
                FROM message m WHERE m.role = 'assistant'`,
};

/** Characters shown on each side of a sample's match. */
const CONTEXT = 80;

/** The first steps hit (by trajectory and step), each with its first match and the text around it. */
const samplesSql = (on: RuleOn, limit: number) => `
  SELECT x.id AS "trajectoryId", k.key AS task, t.run, x.step,
    substr(x.text, greatest(1, p.at - ${CONTEXT}), least(p.at - 1, ${CONTEXT})) AS before,
    left(p.match, 500) AS match,
    substr(x.text, p.at + length(p.match), ${CONTEXT}) AS after
  FROM (${TEXTS[on]}) x
    CROSS JOIN LATERAL (SELECT regexp_instr(x.text, $1) AS at, regexp_substr(x.text, $1) AS match) p
    JOIN trajectory t ON t.id = x.id JOIN task k ON k.id = t."taskId"
  WHERE p.at > 0 AND ($2::int[] IS NULL OR x.id = ANY($2::int[]))
  ORDER BY x.id, x.step LIMIT ${limit}`;

/** Each tested trajectory: its condition, the steps hit, the panel's and gold's verdicts in the category. */
const tested = (on: RuleOn, category: Category) => `
  WITH hits AS (${HITS[on]})
  SELECT t.id, b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt,
    coalesce(h.steps, 0) AS "stepsHit", t."${PANEL_FIELDS[category]}"::text AS panel,
    (SELECT g."${CATEGORY_FIELDS[category]}"::text FROM gold_label g WHERE g."trajectoryId" = t.id
      ORDER BY g."createdAt" DESC, g.id DESC LIMIT 1) AS gold
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
    LEFT JOIN hits h ON h.id = t.id
  WHERE $2::int[] IS NULL OR t.id = ANY($2::int[])`;

/**
 * Tries a rule over the trajectories of `filter` (all without one). A pattern PostgreSQL cannot
 * compile is refused with its reason; a scan longer than `timeoutMs` is stopped with a message.
 */
export async function testRule(
  rule: RuleUnderTest,
  filter: TrajectoryFilter = {},
  { timeoutMs = SCAN_TIMEOUT_MS, samples: samples_ = 20 }: { timeoutMs?: number; samples?: number } = {},
): Promise<RuleTest> {
  // The list's filter, as ids (none: every trajectory); read before the transaction (PGlite: one connection).
  const ids = Object.keys(filter).length
    ? (await db().trajectory.findMany({ where: trajectoryWhere(filter), select: { id: true } })).map((t) => t.id)
    : null;
  const started = performance.now();
  const result = await transaction(async (sql) => {
    const problem = await patternProblem(sql, rule.pattern, rule.ignoreCase);
    if (problem) throw new AppError("BAD_INPUT", `pattern: ${problem}`, "pattern");
    await boundScan(sql, timeoutMs);
    // Case folded by the pattern itself: (?i) is PostgreSQL's embedded option for it.
    const pattern = rule.ignoreCase ? `(?i)${rule.pattern}` : rule.pattern;
    try {
      const rows = await sql.query<TestedTrajectory>(tested(rule.on, rule.category), [pattern, ids]);
      const samples = await sql.query<RuleSample>(samplesSql(rule.on, samples_), [pattern, ids]);
      return { rows, samples };
    } catch (e) {
      if ((e as { code?: string }).code === "57014")
        throw new AppError(
          "BAD_INPUT",
          `the scan ran longer than ${Math.round(timeoutMs / 1000)} s and was stopped: make the pattern more specific`,
          "pattern",
        );
      throw e;
    }
  });
  return { rule, report: ruleTestReport(result.rows), ms: performance.now() - started, samples: result.samples };
}
