import "server-only";
// The trajectory list: filtered, sorted and paged in the database, reading only list columns.

import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db";
import type { EvidenceKind } from "@/lib/domain/evidence";
import { phraseQuery } from "@/lib/domain/search";
import { PAGE_SIZE, type TrajectoryFilter, triedRule } from "@/lib/domain/trajectory-filter";
import { CATEGORY_FIELDS, type Category, PANEL_FIELDS, type Verdict, verdictsOf } from "@/lib/domain/verdicts";
import { GOLD_IN_FORCE } from "./gold";
import { firedIds } from "./rule-scans";
import { CONDITION_SELECT, PANEL_SELECT } from "./selects";

const ATTEMPT: Verdict[] = ["ATTEMPTED", "SUCCESSFUL"];

function verdictIs(v: string) {
  return v === "attempt" ? { in: ATTEMPT } : (v as Verdict);
}

export function trajectoryWhere(f: TrajectoryFilter): Prisma.TrajectoryWhereInput {
  // Each part sets keys of its own, so they merge without overwriting one another.
  return { ...conditionWhere(f), ...verdictWhere(f), ...evidenceWhere(f) };
}

/** The filters on where a trajectory comes from: its condition, its study, whether it is labelled. */
function conditionWhere(f: TrajectoryFilter): Prisma.TrajectoryWhereInput {
  const where: Prisma.TrajectoryWhereInput = {};
  if (f.benchmark) where.benchmark = { name: f.benchmark };
  if (f.model) where.model = { name: f.model };
  if (f.task) where.task = { key: f.task };
  if (f.network) where.network = f.network === "on";
  if (f.prompt) where.prompt = f.prompt;
  if (f.run) where.run = f.run;
  if (f.resolved) where.resolved = f.resolved === "yes" ? true : f.resolved === "no" ? false : null;
  if (f.study) where.studyItems = { some: { study: { name: f.study } } };
  if (f.labelled) where.labelCount = f.labelled === "yes" ? { gt: 0 } : 0;
  return where;
}

/** The filters on verdicts: the panel's, a category's, one judge's, the annotators' and the gold label. */
function verdictWhere(f: TrajectoryFilter): Prisma.TrajectoryWhereInput {
  const where: Prisma.TrajectoryWhereInput = {};
  if (f.panel === "not-successful")
    where.AND = [{ OR: [{ panelVerdict: null }, { panelVerdict: { in: ["ATTEMPTED", "NOT_ATTEMPTED"] } }] }];
  else if (f.panel)
    where.panelVerdict =
      f.panel === "unjudged"
        ? null
        : f.panel === "judged"
          ? { not: null }
          : f.panel === "no-success"
            ? { in: ["ATTEMPTED", "NOT_ATTEMPTED"] }
            : verdictIs(f.panel);
  if (f.human) {
    const overall = {
      attempt: { in: ATTEMPT },
      "no-attempt": "NOT_ATTEMPTED" as const,
      success: "SUCCESSFUL" as const,
      "no-success": { in: ["ATTEMPTED", "NOT_ATTEMPTED"] as Verdict[] },
    }[f.human];
    where.labels = { some: { overall } };
  }
  if (f.gold)
    where.goldOverall = {
      any: { not: null },
      none: null,
      attempt: { in: ATTEMPT },
      "no-attempt": "NOT_ATTEMPTED" as const,
      success: "SUCCESSFUL" as const,
      "no-success": { in: ["ATTEMPTED", "NOT_ATTEMPTED"] as Verdict[] },
    }[f.gold];
  if (f.category && f.categoryVerdict) where[PANEL_FIELDS[f.category]] = verdictIs(f.categoryVerdict);
  if (f.split) where.panelSplit = f.split;
  if (f.judge)
    where.votes = {
      some: {
        judge: { name: f.judge },
        ...(f.judgeVerdict === "unparseable"
          ? { parseStatus: "UNPARSEABLE" as const }
          : f.judgeVerdict
            ? {
                overall:
                  f.judgeVerdict === "no-success"
                    ? { in: ["ATTEMPTED", "NOT_ATTEMPTED"] as Verdict[] }
                    : verdictIs(f.judgeVerdict),
              }
            : {}),
      },
    };
  if (f.unparseable) where.unparseableVotes = f.unparseable === "yes" ? { gt: 0 } : 0;
  return where;
}

/** The filters on evidence from the task records and on patch similarity. */
function evidenceWhere(f: TrajectoryFilter): Prisma.TrajectoryWhereInput {
  const where: Prisma.TrajectoryWhereInput = {};
  if (f.evidence === "unchecked") where.taskRecorded = false;
  else if (f.evidence) {
    where.taskRecorded = true;
    where.evidenceKinds =
      f.evidence === "any" ? { isEmpty: false } : f.evidence === "none" ? { isEmpty: true } : { has: f.evidence };
  }
  if (f.similarity !== undefined) where.patchSimilarity = { gte: f.similarity };
  if (f.similarityBelow !== undefined)
    where.OR = [{ patchSimilarity: { lt: f.similarityBelow } }, { patchSimilarity: null }];
  return where;
}

function orderBy(f: TrajectoryFilter): Prisma.TrajectoryOrderByWithRelationInput[] {
  const dir = f.dir ?? "asc";
  const by: Record<NonNullable<TrajectoryFilter["sort"]>, Prisma.TrajectoryOrderByWithRelationInput> = {
    task: { task: { key: dir } },
    model: { model: { name: dir } },
    steps: { stepCount: dir },
    run: { run: dir },
    panel: { panelVerdict: { sort: dir, nulls: "first" } },
    votes: { voteCount: dir },
    similarity: { patchSimilarity: { sort: dir, nulls: "last" } },
  };
  return [by[f.sort ?? "task"], { id: "asc" }];
}

export type TrajectoryListRow = {
  id: number;
  benchmark: string;
  model: string;
  task: string;
  network: boolean;
  prompt: string;
  run: number;
  resolved: boolean | null;
  steps: number;
  panel: Verdict | null;
  split: string | null;
  categories: Record<Category, Verdict | null>;
  votes: number;
  unparseable: number;
  labels: number;
  evidence: EvidenceKind[];
  similarity: number | null;
};

/**
 * Trajectories whose commands or output starts hold the words of the text in that order (words
 * as lib/domain/search.ts cuts them), served by the two documents' GIN indexes. The small commands
 * document is checked first, so a common command is not looked for in every output.
 */
async function matchingText(q: string): Promise<Prisma.IntFilter> {
  const query = phraseQuery(q);
  if (query === null) return { in: [] };
  const rows = await db().$queryRaw<Array<{ id: number }>>`
    SELECT "trajectoryId" AS id FROM trajectory_search, CAST(${query} AS tsquery) AS query
    WHERE commands @@ query OR outputs @@ query`;
  return shorterIdFilter(rows.map((r) => r.id));
}

/**
 * An id filter for these trajectories. A list of ids costs a parameter each in every query that
 * filters on it: when most trajectories are among them (a common command, every paired task), the
 * few that are not make the shorter list.
 */
async function shorterIdFilter(ids: number[], { not = false } = {}): Promise<Prisma.IntFilter> {
  const [{ n }] = await db().$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM trajectory`;
  if (ids.length * 2 <= n) return not ? { notIn: ids } : { in: ids };
  const others = (
    await db().$queryRaw<Array<{ id: number }>>`SELECT id FROM trajectory WHERE NOT (id = ANY(${ids}::int[]))`
  ).map((r) => r.id);
  return not ? { in: others } : { notIn: others };
}

/**
 * The filters the database answers by a scan or a query of their own, each as an id filter: pairs,
 * the rules (in force by name or category, or one being tried; `ruleFires=no` keeps the others) and
 * the gold label's verdict in a category.
 */
async function idFilters(f: TrajectoryFilter): Promise<Prisma.TrajectoryWhereInput[]> {
  const and: Prisma.TrajectoryWhereInput[] = [];
  const not = f.ruleFires === "no";
  if (f.pair) and.push({ id: await pairedIds(f.pair) });
  if (f.suspect) and.push({ id: await shorterIdFilter(await firedIds({ category: f.suspect })) });
  if (f.rule) and.push({ id: await shorterIdFilter(await firedIds({ rule: f.rule }), { not }) });
  const tried = triedRule(f);
  if (tried) and.push({ id: await shorterIdFilter(await firedIds({ tried }), { not }) });
  if (f.category && f.goldVerdict) and.push({ id: await goldIds(f.category, f.goldVerdict) });
  return and;
}

/** Trajectories whose gold label in force (the newest) gives this verdict in this category. */
async function goldIds(category: Category, verdict: string): Promise<Prisma.IntFilter> {
  const field = CATEGORY_FIELDS[category];
  const rows = await db().$queryRawUnsafe<Array<{ id: number }>>(
    `SELECT g."trajectoryId" AS id FROM ${GOLD_IN_FORCE} g WHERE g."${field}"::text = ANY($1::text[])`,
    verdict === "attempt" ? ATTEMPT : [verdict],
  );
  return shorterIdFilter(rows.map((r) => r.id));
}

/** The answer of a judged trajectory (alias t) to a pair's question, as SQL. */
const PAIR_ANSWER = {
  attempt: (t: string) => `${t}."panelVerdict" IN ('ATTEMPTED', 'SUCCESSFUL')`,
  success: (t: string) => `${t}."panelVerdict" = 'SUCCESSFUL'`,
  resolved: (t: string) => `(${t}."panelVerdict" = 'SUCCESSFUL' AND ${t}.resolved IS TRUE)`,
} as const;

/** Trajectories in a vanilla → principled pair (the `pair` filter), as an id filter. */
async function pairedIds(pair: NonNullable<TrajectoryFilter["pair"]>): Promise<Prisma.IntFilter> {
  const same = `o."benchmarkId" = t."benchmarkId" AND o."modelId" = t."modelId" AND o.network = t.network
    AND o."taskId" = t."taskId" AND o.prompt <> t.prompt`;
  const sql =
    pair === "task"
      ? `SELECT t.id FROM trajectory t WHERE EXISTS (SELECT 1 FROM trajectory o WHERE ${same})`
      : `SELECT t.id FROM trajectory t JOIN trajectory o ON ${same} AND o.run = t.run
         WHERE t."panelVerdict" IS NOT NULL AND o."panelVerdict" IS NOT NULL
           ${pair === "run" ? "" : `AND (${PAIR_ANSWER[pair]("t")}) <> (${PAIR_ANSWER[pair]("o")})`}`;
  const rows = await db().$queryRawUnsafe<Array<{ id: number }>>(sql);
  return shorterIdFilter(rows.map((r) => r.id));
}

/** `withheld`: trajectories the viewer may not see now (lib/data/blind-elsewhere.ts), left out. */
export async function listTrajectories(
  f: TrajectoryFilter,
  withheld: readonly number[] = [],
): Promise<{ rows: TrajectoryListRow[]; total: number; page: number; pages: number }> {
  const where = trajectoryWhere(f);
  if (f.q) where.id = await matchingText(f.q);
  const and = await idFilters(f);
  if (withheld.length) and.push({ id: { notIn: [...withheld] } });
  if (and.length) where.AND = [...((where.AND as Prisma.TrajectoryWhereInput[] | undefined) ?? []), ...and];
  const total = await db().trajectory.count({ where });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(f.page ?? 1, pages);
  const rows = await db().trajectory.findMany({
    where,
    orderBy: orderBy(f),
    skip: (page - 1) * PAGE_SIZE,
    take: PAGE_SIZE,
    select: {
      id: true,
      ...CONDITION_SELECT,
      stepCount: true,
      ...PANEL_SELECT,
      voteCount: true,
      unparseableVotes: true,
      labelCount: true,
      evidenceKinds: true,
      patchSimilarity: true,
      task: { select: { key: true } },
    },
  });
  return {
    total,
    page,
    pages,
    rows: rows.map((r) => ({
      id: r.id,
      benchmark: r.benchmark.name,
      model: r.model.name,
      task: r.task.key,
      network: r.network,
      prompt: r.prompt,
      run: r.run,
      resolved: r.resolved,
      steps: r.stepCount,
      panel: r.panelVerdict,
      split: r.panelSplit,
      categories: verdictsOf(r, PANEL_FIELDS),
      votes: r.voteCount,
      unparseable: r.unparseableVotes,
      labels: r.labelCount,
      evidence: r.evidenceKinds as EvidenceKind[],
      similarity: r.patchSimilarity,
    })),
  };
}

/** The values the filter menus offer. */
export async function listFilterOptions(): Promise<{ benchmarks: string[]; models: string[] }> {
  const [benchmarks, models] = await Promise.all([
    db().benchmark.findMany({ select: { name: true }, orderBy: { name: "asc" } }),
    db().agentModel.findMany({ select: { name: true }, orderBy: { name: "asc" } }),
  ]);
  return { benchmarks: benchmarks.map((b) => b.name), models: models.map((m) => m.name) };
}
