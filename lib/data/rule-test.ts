import "server-only";
// A rule tried over a study (`rules test`, the Rules page's preview): which trajectories it fires on
// and how many steps it hits, from one scan of the texts the database runs under a time limit, then
// the figures of lib/domain/rule-test.ts. A rule need not be saved to be tried. The rules in force are
// measured the same way (lib/data/rule-figures.ts).
import { db } from "@/lib/db";
import {
  type RuleTestReport,
  ruleTestReport,
  type TestedRuleHead,
  type TestedTrajectory,
} from "@/lib/domain/rule-test";
import type { RuleOn } from "@/lib/domain/rules";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { CATEGORIES, CATEGORY_FIELDS, type Category, PANEL_FIELDS, type Verdict } from "@/lib/domain/verdicts";
import { AppError } from "@/lib/errors";
import { GOLD_IN_FORCE } from "./gold";
import { withTriedRule } from "./rule-scans";
import { parseRule, RULE_TEXT, rulesNow, SCAN_TIMEOUT_MS } from "./rules";
import type { Sql } from "./sql";
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

/** The text of a matched row (`h`), by `on`: the row read again by its key. */
const MATCHED_TEXT: Record<RuleOn, string> = {
  command: `JOIN tool_call x ON x."trajectoryId" = h."trajectoryId" AND x."messageSeq" = h.a AND x.seq = h.b`,
  output: `JOIN message x ON x."trajectoryId" = h."trajectoryId" AND x.step = h.step AND x.seq = h.a`,
  reasoning: `JOIN message x ON x."trajectoryId" = h."trajectoryId" AND x.step = h.step AND x.seq = h.a`,
};

/** Characters shown on each side of a sample's match. */
const CONTEXT = 80;

/** The first rows hit (by trajectory and step), each with its first match and the text around it. */
const samplesSql = (on: RuleOn, limit: number) => `
  SELECT x."trajectoryId", k.key AS task, t.run, x.step,
    substr(x.text, greatest(1, p.at - ${CONTEXT}), least(p.at - 1, ${CONTEXT})) AS before,
    left(p.match, 500) AS match,
    substr(x.text, p.at + length(p.match), ${CONTEXT}) AS after
  FROM (SELECT h."trajectoryId", h.step, ${RULE_TEXT[on]("x")} AS text
          FROM (SELECT * FROM rule_hit ORDER BY "trajectoryId", step, a, b LIMIT ${limit}) h ${MATCHED_TEXT[on]}) x
    CROSS JOIN LATERAL (SELECT regexp_instr(x.text, $1) AS at, regexp_substr(x.text, $1) AS match) p
    JOIN trajectory t ON t.id = x."trajectoryId" JOIN task k ON k.id = t."taskId"
  ORDER BY x."trajectoryId", x.step`;

/** A trajectory tested: its condition, and the panel's and the gold label's verdicts in every category. */
export type StudyTrajectory = Omit<TestedTrajectory, "stepsHit" | "panel" | "gold"> & {
  panel: Record<Category, Verdict | null>;
  gold: Record<Category, Verdict | null>;
};

const VERDICT_COLUMNS = CATEGORIES.flatMap((c) => [
  `t."${PANEL_FIELDS[c]}"::text AS "panel${c}"`,
  `g."${CATEGORY_FIELDS[c]}"::text AS "gold${c}"`,
]).join(", ");

/** The trajectories `ids` (null: all) with their condition and verdicts: what every rule is measured on. */
export async function studyTrajectories(sql: Sql, ids: number[] | null): Promise<StudyTrajectory[]> {
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT t.id, b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt, ${VERDICT_COLUMNS}
       FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
         LEFT JOIN ${GOLD_IN_FORCE} g ON g."trajectoryId" = t.id
      WHERE $1::int[] IS NULL OR t.id = ANY($1::int[])`,
    [ids],
  );
  const of = (r: Record<string, unknown>, rater: "panel" | "gold") =>
    Object.fromEntries(CATEGORIES.map((c) => [c, r[`${rater}${c}`] ?? null])) as Record<Category, Verdict | null>;
  return rows.map((r) => ({
    id: r.id as number,
    benchmark: r.benchmark as string,
    model: r.model as string,
    network: r.network as boolean,
    prompt: r.prompt as StudyTrajectory["prompt"],
    panel: of(r, "panel"),
    gold: of(r, "gold"),
  }));
}

/** A rule's report over these trajectories: its category's verdicts and the steps it hits in each (by id). */
export function reportOf(study: readonly StudyTrajectory[], category: Category, steps: ReadonlyMap<number, number>) {
  return ruleTestReport(
    study.map((t) => ({ ...t, stepsHit: steps.get(t.id) ?? 0, panel: t.panel[category], gold: t.gold[category] })),
  );
}

/** Tries a rule over the trajectories of `filter` (all without one). */
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
  const result = await withTriedRule(rule, ids, timeoutMs, async (sql, pattern) => ({
    study: await studyTrajectories(sql, ids),
    steps: await sql.query<{ id: number; steps: number }>(
      `SELECT "trajectoryId" AS id, count(DISTINCT step)::int AS steps FROM rule_hit GROUP BY 1`,
    ),
    samples: await sql.query<RuleSample>(samplesSql(rule.on, samples_), [pattern]),
  }));
  const steps = new Map(result.steps.map((r) => [r.id, r.steps]));
  const report = reportOf(result.study, rule.category, steps);
  return { rule, report, ms: performance.now() - started, samples: result.samples };
}

/**
 * The rule a test names: the saved one called `name` (NOT_FOUND when there is none), or one given by
 * its category, `on`, pattern and case (BAD_INPUT naming the field).
 */
export async function ruleToTest(given: {
  name?: string | null;
  category?: unknown;
  on?: unknown;
  pattern?: unknown;
  ignoreCase?: boolean;
}): Promise<RuleUnderTest> {
  if (given.name) {
    const r = (await rulesNow()).find((x) => x.name === given.name);
    if (!r)
      throw new AppError("NOT_FOUND", `no rule named "${given.name.slice(0, 100)}" (rules list shows them)`, "name");
    return { name: r.name, category: r.category, on: r.on, pattern: r.pattern, ignoreCase: r.ignoreCase };
  }
  const r = parseRule({ ...given, name: "unsaved", ignore_case: given.ignoreCase === true });
  return { name: null, category: r.category, on: r.on, pattern: r.pattern, ignoreCase: r.ignore_case };
}

/** A tested rule as its output heads it. */
export const testedHead = (r: RuleUnderTest): TestedRuleHead => ({
  name: r.name,
  category: r.category,
  on: r.on,
  pattern: r.pattern,
  ignore_case: r.ignoreCase,
});
