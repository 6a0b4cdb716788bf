import "server-only";
// The trajectory list: filtered, sorted and paged in the database, reading only list columns.

import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db";
import type { EvidenceKind } from "@/lib/domain/evidence";
import { PAGE_SIZE, type TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { type Verdict, type Verdicts, verdictMap } from "@/lib/domain/verdicts";
import { categoriesNow } from "./categories";
import { CONDITION_SELECT, PANEL_SELECT } from "./selects";
import { ATTEMPT, idFilters, matchingText } from "./trajectory-ids";

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
  if (f.ids) where.id = { in: f.ids };
  if (f.import) where.importId = f.import;
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
  categories: Verdicts;
  votes: number;
  unparseable: number;
  labels: number;
  evidence: EvidenceKind[];
  similarity: number | null;
};

const ROW_SELECT = {
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
} as const;

type StoredRow = Prisma.TrajectoryGetPayload<{ select: typeof ROW_SELECT }>;

const listRow = (r: StoredRow): TrajectoryListRow => ({
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
  categories: verdictMap(r.panelCategories),
  votes: r.voteCount,
  unparseable: r.unparseableVotes,
  labels: r.labelCount,
  evidence: r.evidenceKinds as EvidenceKind[],
  similarity: r.patchSimilarity,
});

/** Every filter of the list as one condition; `withheld`: trajectories the viewer may not see now, left out. */
async function listWhere(f: TrajectoryFilter, withheld: readonly number[]): Promise<Prisma.TrajectoryWhereInput> {
  const where = trajectoryWhere(f);
  const and = await idFilters(f);
  if (f.q) and.push(await matchingText(f.q));
  if (withheld.length) and.push({ id: { notIn: [...withheld] } });
  if (and.length) where.AND = [...((where.AND as Prisma.TrajectoryWhereInput[] | undefined) ?? []), ...and];
  return where;
}

/** `withheld`: trajectories the viewer may not see now (lib/data/blind-elsewhere.ts), left out. */
export async function listTrajectories(
  f: TrajectoryFilter,
  withheld: readonly number[] = [],
): Promise<{ rows: TrajectoryListRow[]; total: number; page: number; pages: number }> {
  const where = await listWhere(f, withheld);
  const total = await db().trajectory.count({ where });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(f.page ?? 1, pages);
  const rows = await db().trajectory.findMany({
    where,
    orderBy: orderBy(f),
    skip: (page - 1) * PAGE_SIZE,
    take: PAGE_SIZE,
    select: ROW_SELECT,
  });
  return { total, page, pages, rows: rows.map(listRow) };
}

/** Every trajectory a list's filter holds, by id (a bundle's figure links). */
export async function idsWhere(f: TrajectoryFilter): Promise<number[]> {
  const rows = await db().trajectory.findMany({ where: await listWhere(f, []), select: { id: true } });
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** The list as the API pages it: `limit` rows by id after the cursor `after`; `next` null at the end. */
export async function trajectoryPage(
  f: TrajectoryFilter,
  after: number,
  limit: number,
  withheld: readonly number[] = [],
): Promise<{ items: TrajectoryListRow[]; next: number | null }> {
  const where = await listWhere(f, withheld);
  const rows = await db().trajectory.findMany({
    where: { AND: [where, { id: { gt: after } }] },
    orderBy: { id: "asc" },
    take: limit + 1,
    select: ROW_SELECT,
  });
  const items = rows.slice(0, limit).map(listRow);
  return { items, next: rows.length > limit ? items.at(-1)!.id : null };
}

export async function listFilterOptions(): Promise<{
  benchmarks: string[];
  models: string[];
  categories: Array<{ key: string; name: string }>;
}> {
  const [benchmarks, models, categories] = await Promise.all([
    db().benchmark.findMany({ select: { name: true }, orderBy: { name: "asc" } }),
    db().agentModel.findMany({ select: { name: true }, orderBy: { name: "asc" } }),
    categoriesNow(),
  ]);
  return {
    benchmarks: benchmarks.map((b) => b.name),
    models: models.map((m) => m.name),
    categories: categories.map(({ key, name }) => ({ key, name })),
  };
}
