import "server-only";
// A rule tried over a study: one time-limited scan, then lib/domain/rule-test.ts's figures.
import { db } from "@/lib/db";
import {
  type RuleTestReport,
  ruleTestReport,
  type TestedRuleHead,
  type TestedTrajectory,
} from "@/lib/domain/rule-test";
import type { RuleOn } from "@/lib/domain/rules";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { type Verdicts, verdictMap } from "@/lib/domain/verdicts";
import { AppError } from "@/lib/errors";
import { patternQuery } from "@/lib/server/pattern-thread";
import { GOLD_IN_FORCE } from "./gold";
import { onPatternThread } from "./pattern-hits";
import { withTriedRule } from "./rule-scans";
import { RULE_TEXT, SCAN_TIMEOUT_MS } from "./rule-sql";
import { parseRule, rulesNow } from "./rules";
import type { Sql } from "./sql";
import { trajectoryWhere } from "./trajectories";

export type RuleUnderTest = {
  name: string | null;
  category: string;
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
/** `twins`: the enabled rules in force (but `except`) whose kept hits are exactly its hits: it adds nothing. */
export type RuleTest = {
  rule: RuleUnderTest;
  report: RuleTestReport;
  ms: number;
  samples: RuleSample[];
  twins: string[];
};

/** The enabled rules in force of the same kind whose kept hits, on the trajectories tried, are exactly rule_hit's. */
const TWINS_SQL = `SELECT l.name FROM rule l
  WHERE l.id IN (SELECT id FROM rules_scanned()) AND l."on" = $1 AND l.name IS DISTINCT FROM $3
    AND EXISTS (SELECT FROM rule_hit)
    AND NOT EXISTS (SELECT "trajectoryId", step FROM rule_hit EXCEPT
                    SELECT "trajectoryId", step FROM rule_match WHERE "ruleId" = l.id)
    AND NOT EXISTS (SELECT "trajectoryId", step FROM rule_match
                     WHERE "ruleId" = l.id AND ($2::int[] IS NULL OR "trajectoryId" = ANY($2::int[]))
                    EXCEPT SELECT "trajectoryId", step FROM rule_hit)
  ORDER BY l.rank, l.name`;

/** The text of a matched row (`h`), by `on`: the row read again by its key. */
const MATCHED_TEXT: Record<RuleOn, string> = {
  command: `JOIN tool_call x ON x."trajectoryId" = h."trajectoryId" AND x."messageSeq" = h.a AND x.seq = h.b`,
  output: `JOIN message x ON x."trajectoryId" = h."trajectoryId" AND x.step = h.step AND x.seq = h.a`,
  reasoning: `JOIN message x ON x."trajectoryId" = h."trajectoryId" AND x.step = h.step AND x.seq = h.a`,
};

/** Characters shown on each side of a sample's match. */
const CONTEXT = 80;

/** The first rows hit (by trajectory and step), each with its text (`x.text`). */
const sampleRows = (on: RuleOn, limit: number) => `
  SELECT x."trajectoryId", k.key AS task, t.run, x.step, x.text
  FROM (SELECT h."trajectoryId", h.step, h.a, h.b, ${RULE_TEXT[on]("x")} AS text
          FROM (SELECT * FROM rule_hit ORDER BY "trajectoryId", step, a, b LIMIT ${limit}) h ${MATCHED_TEXT[on]}) x
    JOIN trajectory t ON t.id = x."trajectoryId" JOIN task k ON k.id = t."taskId"
  ORDER BY x."trajectoryId", x.step, x.a, x.b`;

/** A text's first match (pattern $1, flags $2) and the text around it, from `x.text`. */
const SNIPPET = `
    substr(x.text, greatest(1, p.at - ${CONTEXT}), least(p.at - 1, ${CONTEXT})) AS before,
    left(p.match, 500) AS match,
    substr(x.text, p.at + length(p.match), ${CONTEXT}) AS after
  FROM LATERAL_SOURCE CROSS JOIN LATERAL (SELECT regexp_instr(x.text, $1, 1, 1, 0, $2) AS at,
                                                 regexp_substr(x.text, $1, 1, 1, $2) AS match) p`;

/** A tried rule's first rows hit, each with its first match in context, found where its patterns run. */
async function samplesOf(sql: Sql, on: RuleOn, limit: number, pattern: string, flags: string, limitMs: number) {
  const source = `(${sampleRows(on, limit)}) x`;
  if (!onPatternThread())
    return sql.query<RuleSample>(
      `SELECT x."trajectoryId", x.task, x.run, x.step, ${SNIPPET.replace("LATERAL_SOURCE", source)}
        ORDER BY x."trajectoryId", x.step`,
      [pattern, flags],
    );
  const rows = await sql.query<Omit<RuleSample, "before" | "match" | "after"> & { text: string }>(
    sampleRows(on, limit),
  );
  const snippets = await patternQuery<Pick<RuleSample, "before" | "match" | "after">>(
    `SELECT ${SNIPPET.replace("LATERAL_SOURCE", "unnest($3::text[]) WITH ORDINALITY AS x(text, i)")} ORDER BY x.i`,
    [pattern, flags, rows.map((r) => r.text)],
    limitMs,
  );
  return rows.map(({ text: _, ...r }, i) => ({ ...r, ...snippets[i]! }));
}

/** Trajectories alike: a condition, the panel's and the gold label's verdicts in every category, how many. */
export type StudyGroup = Omit<TestedTrajectory, "stepsHit" | "panel" | "gold" | "times"> & {
  times: number;
  panel: Verdicts;
  gold: Verdicts;
};

/** Trajectories in groups alike and, per rule, the groups it fires on with steps hit (a few hundred rows). */
export type RuleStudy = { groups: StudyGroup[]; fired: Map<number, Array<StudyGroup & { steps: number }>> };

const GROUP_COLUMNS = `b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt,
  t."panelCategories" AS panel, coalesce(g.verdicts, '{}') AS gold`;
/** GROUP BY the columns of GROUP_COLUMNS and the `before` columns ahead of them, by position. */
const groupBy = (before: number) => `GROUP BY ${Array.from({ length: before + 6 }, (_, i) => i + 1).join(", ")}`;
const STUDY_JOINS = `JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
  LEFT JOIN ${GOLD_IN_FORCE} g ON g."trajectoryId" = t.id`;
const IN_IDS = `($1::int[] IS NULL OR t.id = ANY($1::int[]))`;

function groupOf(r: Record<string, unknown>): StudyGroup {
  return {
    benchmark: r.benchmark as string,
    model: r.model as string,
    network: r.network as boolean,
    prompt: r.prompt as StudyGroup["prompt"],
    times: r.times as number,
    panel: verdictMap(r.panel),
    gold: verdictMap(r.gold),
  };
}
const groupKey = (g: StudyGroup) =>
  JSON.stringify([g.benchmark, g.model, g.network, g.prompt, sorted(g.panel), sorted(g.gold)]);
const sorted = (v: Verdicts) => Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1));

/** The study as the rules in force fire on it, from their kept hits: steps counted per rule and trajectory. */
export const keptHitsStudy = (sql: Sql): Promise<RuleStudy> =>
  ruleStudy(
    sql,
    null,
    `SELECT "ruleId" AS rule, "trajectoryId", count(*)::int AS steps FROM rule_match
      WHERE "ruleId" IN (SELECT id FROM rules_in_force() r) GROUP BY 1, 2`,
  );

/** The groups of trajectories `ids` (null: all) and of those each rule fires on; `hits` is SQL (rule, id, steps). */
export async function ruleStudy(sql: Sql, ids: number[] | null, hits: string): Promise<RuleStudy> {
  const groups = await sql.query<Record<string, unknown>>(
    `SELECT ${GROUP_COLUMNS}, count(*)::int AS times FROM trajectory t ${STUDY_JOINS} WHERE ${IN_IDS} ${groupBy(0)}`,
    [ids],
  );
  const fired = await sql.query<Record<string, unknown>>(
    `SELECT h.rule, ${GROUP_COLUMNS}, count(*)::int AS times, sum(h.steps)::int AS steps
       FROM (${hits}) h JOIN trajectory t ON t.id = h."trajectoryId" ${STUDY_JOINS} WHERE ${IN_IDS} ${groupBy(1)}`,
    [ids],
  );
  const byRule = new Map<number, Array<StudyGroup & { steps: number }>>();
  for (const r of fired) {
    const list = byRule.get(r.rule as number) ?? [];
    list.push({ ...groupOf(r), steps: r.steps as number });
    byRule.set(r.rule as number, list);
  }
  return { groups: groups.map(groupOf), fired: byRule };
}

/** A rule's report: its category's verdicts, over the groups it fires on and the rest of the study. */
export function reportOf(study: RuleStudy, rule: number, category: string): RuleTestReport {
  const fired = study.fired.get(rule) ?? [];
  const firedTimes = new Map(fired.map((f) => [groupKey(f), f.times]));
  const entry = (g: StudyGroup, times: number, stepsHit: number): TestedTrajectory => ({
    benchmark: g.benchmark,
    model: g.model,
    network: g.network,
    prompt: g.prompt,
    times,
    stepsHit,
    // A category no vote or gold label stores a verdict in yet has none.
    panel: g.panel[category] ?? null,
    gold: g.gold[category] ?? null,
  });
  return ruleTestReport([
    ...fired.map((f) => entry(f, f.times, f.steps)),
    ...study.groups.map((g) => entry(g, g.times - (firedTimes.get(groupKey(g)) ?? 0), 0)).filter((e) => e.times! > 0),
  ]);
}

/** Tries a rule over `filter`'s trajectories but those `withheld` (one alone would tell its panel's verdicts). */
export async function testRule(
  rule: RuleUnderTest,
  filter: TrajectoryFilter = {},
  {
    timeoutMs = SCAN_TIMEOUT_MS,
    samples: samples_ = 20,
    withheld = [],
    by,
    except = null,
  }: {
    timeoutMs?: number;
    samples?: number;
    withheld?: readonly number[];
    /** Who tries it: a person's tries run one at a time (lib/data/tried-queue.ts). */
    by?: string;
    /** The rule being edited: not its own twin. */
    except?: string | null;
  } = {},
): Promise<RuleTest> {
  // The list's filter, as ids (none: every trajectory); read before the transaction (PGlite: one connection).
  const where = { AND: [trajectoryWhere(filter), { id: { notIn: [...withheld] } }] };
  const ids =
    Object.keys(filter).length || withheld.length
      ? (await db().trajectory.findMany({ where, select: { id: true } })).map((t) => t.id)
      : null;
  const started = performance.now();
  const result = await withTriedRule(
    rule,
    ids,
    timeoutMs,
    async (sql, pattern, flags) => ({
      study: await ruleStudy(
        sql,
        ids,
        `SELECT 0 AS rule, "trajectoryId", count(DISTINCT step)::int AS steps FROM rule_hit GROUP BY 2`,
      ),
      samples: await samplesOf(sql, rule.on, samples_, pattern, flags, timeoutMs),
      twins: (await sql.query<{ name: string }>(TWINS_SQL, [rule.on, ids, except])).map((t) => t.name),
    }),
    by,
  );
  const report = reportOf(result.study, 0, rule.category);
  return { rule, report, ms: performance.now() - started, samples: result.samples, twins: result.twins };
}

/** The rule a test names: the saved one called `name`, or one given whole (BAD_INPUT naming the field). */
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
