import "server-only";
// Where rules' patterns hit, under a time limit on both databases (decision 48).
import { currentDb } from "@/lib/db/connect";
import { backReference, RULE_ON, type RuleOn } from "@/lib/domain/rules";
import { patternQuery } from "@/lib/server/pattern-thread";
import { patternProblem } from "./rule-patterns";
import { boundScan, RULE_TEXT, ruleMatches, TEXT_SOURCE } from "./rule-sql";
import { type Sql, statement, transaction } from "./sql";

/** A pattern to look for: a rule's version (id), or one being tried (id 0). */
export type PatternRule = { id: number; on: RuleOn; pattern: string; ignoreCase: boolean };
/** A text a rule matched: its trajectory, its step, the rest of its key (TEXT_SOURCE's a and b). */
export type Hit = { ruleId: number; trajectoryId: number; step: number; a: number; b: number };

export const onPatternThread = () => currentDb().target.kind === "pglite";

/** Texts read at a time for the pattern thread: at most this many, and this many bytes but one text. */
const CHUNK_ROWS = 500;
const CHUNK_BYTES = 4 << 20;

/** Whether a pattern can be one branch of an alternation: no back-reference, no embedded options or director. */
const branchable = (pattern: string) => backReference(pattern) === null && !/\(\?[a-z]|^\*\*\*/.test(pattern);

/** The hits of `rules` in `ids` within `limitMs`: one case-blind alternation first, then rule by rule. */
export async function findHits(rules: readonly PatternRule[], ids: readonly number[], limitMs: number): Promise<Hit[]> {
  if (!rules.length || !ids.length) return [];
  if (onPatternThread()) return threadHits(rules, ids, limitMs);
  return transaction(async (sql) => {
    await boundScan(sql, limitMs);
    // Before the tables have statistics the planner may read every text instead (150,000 trajectories: 28 s a step).
    await sql.query(`SET LOCAL enable_seqscan = off`);
    const hits: Hit[] = [];
    for (const on of RULE_ON) {
      const own = rules.filter((r) => r.on === on);
      if (!own.length) continue;
      const { table, where, a, b } = TEXT_SOURCE[on];
      const text = RULE_TEXT[on]("x");
      const joined = own.filter((r) => branchable(r.pattern));
      const union = joined.map((r) => `(?:${r.pattern})`).join("|");
      const prefilter = joined.length > 1 && (await patternProblem(sql, union, true)) === null;
      const pass = prefilter ? `AND ${text} ~* $2` : "AND $2::text IS NULL";
      const rows = await sql.query<Hit>(
        `SELECT DISTINCT l.id AS "ruleId", c."trajectoryId", c.step, c.a, c.b
           FROM (SELECT x."trajectoryId", x.step, ${a} AS a, ${b} AS b, ${text} AS text FROM ${table}
                  WHERE ${where} AND x."trajectoryId" = ANY($1::int[]) ${pass} OFFSET 0) c
           JOIN unnest($3::int[], $4::text[], $5::boolean[]) AS l(id, pattern, "ignoreCase")
             ON ${ruleMatches("l", "c.text")} AND (NOT $6::boolean OR l.id = ANY($7::int[]))`,
        [
          ids,
          prefilter ? union : null,
          own.map((r) => r.id),
          own.map((r) => r.pattern),
          own.map((r) => r.ignoreCase),
          prefilter,
          joined.map((r) => r.id),
        ],
      );
      hits.push(...rows);
      // What the alternation passed over is read again only for the patterns that could not join it.
      const alone = own.filter((r) => !prefilter || !branchable(r.pattern));
      if (prefilter && alone.length) hits.push(...(await findAlone(sql, alone, ids)));
    }
    return hits;
  });
}

async function findAlone(sql: Sql, rules: readonly PatternRule[], ids: readonly number[]) {
  const on = rules[0]!.on;
  const { table, where, a, b } = TEXT_SOURCE[on];
  return sql.query<Hit>(
    `SELECT DISTINCT l.id AS "ruleId", x."trajectoryId", x.step, ${a} AS a, ${b} AS b
       FROM unnest($2::int[], $3::text[], $4::boolean[]) AS l(id, pattern, "ignoreCase")
       JOIN ${table} ON ${where} AND x."trajectoryId" = ANY($1::int[]) AND ${ruleMatches("l", RULE_TEXT[on]("x"))}`,
    [ids, rules.map((r) => r.id), rules.map((r) => r.pattern), rules.map((r) => r.ignoreCase)],
  );
}

/** Each text against each pattern, on the pattern thread: the pairs that match (0-based). */
const THREAD_MATCH = `SELECT r.i::int - 1 AS r, t.i::int - 1 AS t
  FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i)
  JOIN unnest($2::text[], $3::boolean[]) WITH ORDINALITY AS r(pattern, "ignoreCase", i)
    ON ${ruleMatches("r", "t.x")}`;

type Keyed = { trajectoryId: number; step: number; a: number; b: number };

/** Texts of kind `on` of trajectories `ids` (null: all), a chunk a statement, no transaction held between. */
export async function* textChunks(
  on: RuleOn,
  ids: readonly number[] | null,
): AsyncGenerator<{ keys: Keyed[]; texts: string[] }> {
  const { table, where, a, b } = TEXT_SOURCE[on];
  const text = RULE_TEXT[on]("x");
  let after: [number, number, number] = [-1, -1, -1];
  for (;;) {
    const rows = await statement<Keyed & { text: string }>(
      `SELECT "trajectoryId", step, a, b, text FROM (
         SELECT x."trajectoryId", x.step, ${a} AS a, ${b} AS b, ${text} AS text,
                sum(octet_length(${text})) OVER (ORDER BY x."trajectoryId", ${a}, ${b}) AS upto
           FROM ${table}
          WHERE ${where} AND ($1::int[] IS NULL OR x."trajectoryId" = ANY($1::int[]))
            AND (x."trajectoryId", ${a}, ${b}) > ($2::int, $3::int, $4::int)
          ORDER BY x."trajectoryId", ${a}, ${b} LIMIT ${CHUNK_ROWS}) s
        WHERE upto - octet_length(text) < ${CHUNK_BYTES}
        ORDER BY 1, 3, 4`,
      [ids, ...after],
    );
    if (!rows.length) return;
    yield { keys: rows.map(({ text: _, ...key }) => key), texts: rows.map((r) => r.text) };
    const last = rows.at(-1)!;
    after = [last.trajectoryId, last.a, last.b];
  }
}

/** The hits of `rules` in trajectories `ids` (null: all) on the pattern thread, within `limitMs` in all. */
export async function threadHits(
  rules: readonly PatternRule[],
  ids: readonly number[] | null,
  limitMs: number,
): Promise<Hit[]> {
  const deadline = performance.now() + limitMs;
  const hits: Hit[] = [];
  for (const on of RULE_ON) {
    const own = rules.filter((r) => r.on === on);
    if (!own.length) continue;
    for await (const { keys, texts } of textChunks(on, ids)) {
      const pairs = await patternQuery<{ r: number; t: number }>(
        THREAD_MATCH,
        [texts, own.map((r) => r.pattern), own.map((r) => r.ignoreCase)],
        Math.round(deadline - performance.now()),
      );
      for (const { r, t } of pairs) hits.push({ ruleId: own[r]!.id, ...keys[t]! });
    }
  }
  return hits;
}
