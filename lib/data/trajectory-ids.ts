import "server-only";
// The list's filters the database answers by a query of their own, each as an id filter.
import { createHash } from "node:crypto";
import type { Prisma } from "@/generated/prisma/client";
import { phraseQuery } from "@/lib/domain/search";
import { type TrajectoryFilter, triedRule } from "@/lib/domain/trajectory-filter";
import type { Verdict } from "@/lib/domain/verdicts";
import { GOLD_IN_FORCE } from "./gold";
import { firedIds } from "./rule-scans";
import { oneRow, statement, transaction } from "./sql";

/** The verdicts that say an exploit was attempted (successful or not). */
export const ATTEMPT: Verdict[] = ["ATTEMPTED", "SUCCESSFUL"];

/** Trajectories whose commands or outputs hold the text's words in order, by the documents' GIN indexes. */
export async function matchingText(q: string): Promise<Prisma.TrajectoryWhereInput> {
  const query = phraseQuery(q);
  if (query === null) return { id: { in: [] } };
  const rows = await statement<{ id: number }>(
    `SELECT "trajectoryId" AS id FROM trajectory_search, CAST($1 AS tsquery) AS query
     WHERE commands @@ query OR outputs @@ query`,
    [query],
  );
  return shorterIdFilter(rows.map((r) => r.id));
}

/** The longest list of ids a filter sends as parameters; a longer one is written as an id set. */
export const ID_LISTS = { longest: 30_000 };

/** The shorter of the ids and their complement, as an id set past ID_LISTS.longest (65,535 parameters). */
async function shorterIdFilter(ids: number[], { not = false } = {}): Promise<Prisma.TrajectoryWhereInput> {
  const { n } = await oneRow<{ n: number }>(`SELECT count(*)::int AS n FROM trajectory`);
  let [list, without] = [ids, not];
  if (ids.length * 2 > n) {
    list = (await statement<{ id: number }>(`SELECT id FROM trajectory WHERE NOT (id = ANY($1::int[]))`, [ids])).map(
      (r) => r.id,
    );
    without = !not;
  }
  if (list.length <= ID_LISTS.longest) return { id: without ? { notIn: list } : { in: list } };
  const inSet = { idSets: { some: { key: await idSet(list) } } };
  return without ? { NOT: inSet } : inSet;
}

/** Writes these ids as a set keyed by their hash, unless written already; sets unused an hour are deleted. */
async function idSet(ids: readonly number[]): Promise<string> {
  const sorted = Int32Array.from(ids).sort();
  const key = createHash("sha256").update(Buffer.from(sorted.buffer)).digest("hex");
  const used = await statement(`UPDATE id_set SET "usedAt" = now() WHERE key = $1 RETURNING key`, [key]);
  if (used.length) return key;
  await transaction(async (sql) => {
    await sql.query(`DELETE FROM id_set WHERE "usedAt" < now() - interval '1 hour'`);
    const made = await sql.query(
      `INSERT INTO id_set (key, size) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING key`,
      [key, sorted.length],
    );
    // (Another request writing the same set waits above for it to land, then finds it made.)
    if (made.length)
      await sql.query(
        `INSERT INTO id_set_member (key, "trajectoryId") SELECT $1, id FROM trajectory WHERE id = ANY($2::int[])`,
        [key, [...sorted]],
      );
  });
  return key;
}

/** The filters answered by a query of their own (pairs, rules, the gold verdict), each as an id filter. */
export async function idFilters(f: TrajectoryFilter): Promise<Prisma.TrajectoryWhereInput[]> {
  const and: Prisma.TrajectoryWhereInput[] = [];
  const not = f.ruleFires === "no";
  if (f.pair) and.push(await pairedIds(f.pair, f.pairBy ?? "prompt"));
  if (f.suspect) and.push(await shorterIdFilter(await firedIds({ category: f.suspect })));
  if (f.rule) and.push(await shorterIdFilter(await firedIds({ rule: f.rule }), { not }));
  const tried = triedRule(f);
  if (tried) and.push(await shorterIdFilter(await firedIds({ tried }), { not }));
  if (f.category && f.goldVerdict) and.push(await goldIds(f.category, f.goldVerdict));
  if (f.category && f.categoryVerdict) and.push(await panelCategoryIds(f.category, f.categoryVerdict));
  return and;
}

/** Trajectories whose gold label in force (the newest) gives this verdict in this category. */
async function goldIds(category: string, verdict: string): Promise<Prisma.TrajectoryWhereInput> {
  const rows = await statement<{ id: number }>(
    `SELECT g."trajectoryId" AS id FROM ${GOLD_IN_FORCE} g WHERE g.verdicts->>$1 = ANY($2::text[])`,
    [category, verdict === "attempt" ? ATTEMPT : [verdict]],
  );
  return shorterIdFilter(rows.map((r) => r.id));
}

/** Trajectories whose panel gives this verdict in this category (none where it gives none). */
async function panelCategoryIds(category: string, verdict: string): Promise<Prisma.TrajectoryWhereInput> {
  const rows = await statement<{ id: number }>(
    `SELECT id FROM trajectory WHERE "panelCategories"->>$1 = ANY($2::text[])`,
    [category, verdict === "attempt" ? ATTEMPT : [verdict]],
  );
  return shorterIdFilter(rows.map((r) => r.id));
}

/** The answer of a judged trajectory (alias t) to a pair's question, as SQL. */
const PAIR_ANSWER = {
  attempt: (t: string) => `${t}."panelVerdict" IN ('ATTEMPTED', 'SUCCESSFUL')`,
  success: (t: string) => `${t}."panelVerdict" = 'SUCCESSFUL'`,
  resolved: (t: string) => `(${t}."panelVerdict" = 'SUCCESSFUL' AND ${t}.resolved IS TRUE)`,
} as const;

/** Trajectories in a pair (the `pair` filter): across prompts, or across the network, as an id filter. */
async function pairedIds(
  pair: NonNullable<TrajectoryFilter["pair"]>,
  by: "prompt" | "network",
): Promise<Prisma.TrajectoryWhereInput> {
  const across =
    by === "network"
      ? "o.prompt = t.prompt AND o.network <> t.network"
      : "o.network = t.network AND o.prompt <> t.prompt";
  const same = `o."benchmarkId" = t."benchmarkId" AND o."modelId" = t."modelId" AND o."taskId" = t."taskId"
    AND ${across}`;
  const sql =
    pair === "task"
      ? `SELECT t.id FROM trajectory t WHERE EXISTS (SELECT 1 FROM trajectory o WHERE ${same})`
      : `SELECT t.id FROM trajectory t JOIN trajectory o ON ${same} AND o.run = t.run
         WHERE t."panelVerdict" IS NOT NULL AND o."panelVerdict" IS NOT NULL
           ${pair === "run" ? "" : `AND (${PAIR_ANSWER[pair]("t")}) <> (${PAIR_ANSWER[pair]("o")})`}`;
  const rows = await statement<{ id: number }>(sql);
  return shorterIdFilter(rows.map((r) => r.id));
}
