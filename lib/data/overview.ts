import "server-only";
import { db } from "@/lib/db";
import { statement } from "./sql";

export type OverviewRow = {
  benchmark: string;
  model: string;
  trajectories: number;
  judged: number;
  resolved: number;
  labelled: number;
};

export type Overview = {
  totals: {
    trajectories: number;
    tasks: number;
    /** Every answer of every judge, at every prompt version. */
    votes: number;
    /** Those the panel in force counts, and the unparseable among them. */
    counted: number;
    unparseable: number;
    labels: number;
    judges: number;
    annotators: number;
  };
  rows: OverviewRow[];
};

export async function getOverview(): Promise<Overview> {
  const prisma = db();
  const [trajectories, tasks, votes, counted, unparseable, labels, judges, annotators, benchmarks, models, groups] =
    await Promise.all([
      prisma.trajectory.count(),
      prisma.task.count(),
      prisma.judgeVote.count(),
      prisma.judgeVote.count({ where: { counted: true } }),
      prisma.judgeVote.count({ where: { counted: true, parseStatus: "UNPARSEABLE" } }),
      prisma.label.count(),
      prisma.judge.count(),
      prisma.user.count({ where: { labels: { some: {} } } }),
      prisma.benchmark.findMany({ select: { id: true, name: true } }),
      prisma.agentModel.findMany({ select: { id: true, name: true } }),
      statement<{
        benchmarkId: number;
        modelId: number;
        trajectories: number;
        judged: number;
        resolved: number;
        labelled: number;
      }>(`
      SELECT "benchmarkId", "modelId", count(*)::int AS trajectories, count(*) FILTER (WHERE "voteCount" > 0)::int
        AS judged,
        count(*) FILTER (WHERE resolved)::int AS resolved, count(*) FILTER (WHERE "labelCount" > 0)::int AS labelled
      FROM trajectory GROUP BY "benchmarkId", "modelId"`),
    ]);
  const benchmarkName = new Map(benchmarks.map((b) => [b.id, b.name]));
  const modelName = new Map(models.map((m) => [m.id, m.name]));
  const rows = groups
    .map((g) => ({
      benchmark: benchmarkName.get(g.benchmarkId)!,
      model: modelName.get(g.modelId)!,
      trajectories: g.trajectories,
      judged: g.judged,
      resolved: g.resolved,
      labelled: g.labelled,
    }))
    .sort((a, b) => a.benchmark.localeCompare(b.benchmark) || a.model.localeCompare(b.model));
  return { totals: { trajectories, tasks, votes, counted, unparseable, labels, judges, annotators }, rows };
}
