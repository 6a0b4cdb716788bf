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
import { type Sql, transaction } from "./sql";
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

/**
 * The rows a rule matches, by `on`: their keys only (a matched output may be megabytes), kept for
 * the transaction so the texts are read once, however many figures and samples are drawn from them.
 */
const MATCHES: Record<RuleOn, string> = {
  command: `SELECT c."trajectoryId", c.step, c."messageSeq", c.seq FROM tool_call c
             WHERE (c.input ~ $1) = true AND ($2::int[] IS NULL OR c."trajectoryId" = ANY($2::int[]))`,
  output: `SELECT m."trajectoryId", m.step, m.seq, 0 FROM message m
            WHERE m.role = 'tool' AND (m.content ~ $1) = true
              AND ($2::int[] IS NULL OR m."trajectoryId" = ANY($2::int[]))`,
  reasoning: `SELECT m."trajectoryId", m.step, m.seq, 0 FROM message m
               WHERE m.role = 'assistant' AND ((coalesce(m.reasoning, '') || E'\\n' || m.content) ~ $1) = true
                 AND ($2::int[] IS NULL OR m."trajectoryId" = ANY($2::int[]))`,
};

/** The text of a matched row (`h`), by `on`: the row read again by its key. */
const MATCHED_TEXT: Record<RuleOn, { join: string; text: string }> = {
  command: {
    join: `JOIN tool_call c ON c."trajectoryId" = h."trajectoryId" AND c."messageSeq" = h.a AND c.seq = h.b`,
    text: "c.input",
  },
  output: {
    join: `JOIN message m ON m."trajectoryId" = h."trajectoryId" AND m.step = h.step AND m.seq = h.a`,
    text: "m.content",
  },
  reasoning: {
    join: `JOIN message m ON m."trajectoryId" = h."trajectoryId" AND m.step = h.step AND m.seq = h.a`,
    text: `coalesce(m.reasoning, '') || E'\\n' || m.content`,
  },
};

/** Characters shown on each side of a sample's match. */
const CONTEXT = 80;

/** The first rows hit (by trajectory and step), each with its first match and the text around it. */
const samplesSql = (on: RuleOn, limit: number) => `
  SELECT x."trajectoryId", k.key AS task, t.run, x.step,
    substr(x.text, greatest(1, p.at - ${CONTEXT}), least(p.at - 1, ${CONTEXT})) AS before,
    left(p.match, 500) AS match,
    substr(x.text, p.at + length(p.match), ${CONTEXT}) AS after
  FROM (SELECT h."trajectoryId", h.step, ${MATCHED_TEXT[on].text} AS text
          FROM (SELECT * FROM rule_hit ORDER BY "trajectoryId", step, a, b LIMIT ${limit}) h ${MATCHED_TEXT[on].join}) x
    CROSS JOIN LATERAL (SELECT regexp_instr(x.text, $1) AS at, regexp_substr(x.text, $1) AS match) p
    JOIN trajectory t ON t.id = x."trajectoryId" JOIN task k ON k.id = t."taskId"
  ORDER BY x."trajectoryId", x.step`;

/** Each tested trajectory: its condition, the steps hit, the panel's and gold's verdicts in the category. */
const tested = (category: Category) => `
  WITH hits AS (SELECT "trajectoryId" AS id, count(DISTINCT step)::int AS steps FROM rule_hit GROUP BY 1)
  SELECT t.id, b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt,
    coalesce(h.steps, 0) AS "stepsHit", t."${PANEL_FIELDS[category]}"::text AS panel,
    (SELECT g."${CATEGORY_FIELDS[category]}"::text FROM gold_label g WHERE g."trajectoryId" = t.id
      ORDER BY g."createdAt" DESC, g.id DESC LIMIT 1) AS gold
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
    LEFT JOIN hits h ON h.id = t.id
  WHERE $1::int[] IS NULL OR t.id = ANY($1::int[])`;

/** One scan of the texts: the matched rows' keys, in a table dropped when the transaction ends. */
async function scan(sql: Sql, on: RuleOn, pattern: string, ids: number[] | null): Promise<void> {
  await sql.query(`DROP TABLE IF EXISTS pg_temp.rule_hit`);
  await sql.query(`CREATE TEMP TABLE rule_hit ("trajectoryId" int, step int, a int, b int) ON COMMIT DROP`);
  await sql.query(`INSERT INTO rule_hit ${MATCHES[on]}`, [pattern, ids]);
}

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
      await scan(sql, rule.on, pattern, ids);
      const rows = await sql.query<TestedTrajectory>(tested(rule.category), [ids]);
      const samples = await sql.query<RuleSample>(samplesSql(rule.on, samples_), [pattern]);
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
