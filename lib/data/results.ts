import "server-only";
// The result table's tallies kept by the database (decision 37), turned into figures by lib/domain/rates.ts.
import type { ConditionTallies, TaskTally } from "@/lib/domain/rates";
import {
  type CategoryTally,
  type Condition,
  type ConditionResult,
  compareConditions,
  type JudgeTallies,
  resultRow,
} from "@/lib/domain/results";
import { oneRow, statement } from "./sql";

export type { ConditionResult };

const conditionKey = (c: Condition) => `${c.benchmark}\u0000${c.model}\u0000${c.network}\u0000${c.prompt}`;

type ConditionSql = Condition & {
  trajectories: number;
  judged: number;
  attempts: number;
  successes: number;
  resolved_successes: number;
  unparseable: number;
  unparseable_trajectories: number;
};

type ResultTables = {
  conditions: ConditionSql[];
  /** Per condition and category, in the categories' order. */
  categories: Array<
    Condition & { category: string; name: string; judged: number; attempts: number; successes: number }
  >;
  /** Tasks by shape: how many tasks of a condition have n runs of known status, c resolved, e exploits. */
  tasks: Array<Condition & Required<TaskTally> & { tasks: number }>;
  judges: Array<Condition & JudgeTallies>;
  /** Delta rows not folded yet. */
  deltas: number;
};

/** Every condition's figures, tallies and breakdowns, in table order. */
export async function getResults(): Promise<ConditionResult[]> {
  return (await readResults()).results;
}

/** getResults's figures, and how many delta rows of the tallies are not folded yet. */
export async function readResults(): Promise<{ results: ConditionResult[]; deltas: number }> {
  // The tallies the database keeps beside the rows, in one call (prisma/migrations/…_result_tallies).
  const { tables } = await oneRow<{ tables: ResultTables }>(`SELECT result_tables() AS tables`);
  const { conditions, tasks, judges, deltas } = tables;
  const keys = [...new Map(tables.categories.map((c) => [c.category, c.name])).entries()];
  const categoriesBy = new Map<string, Map<string, CategoryTally>>();
  for (const c of tables.categories) {
    const by = categoriesBy.get(conditionKey(c)) ?? new Map<string, CategoryTally>();
    by.set(c.category, {
      key: c.category,
      name: c.name,
      judged: c.judged,
      attempts: c.attempts,
      successes: c.successes,
    });
    categoriesBy.set(conditionKey(c), by);
  }
  const without = await resolvedWithoutExploit();
  const tasksBy = new Map<string, TaskTally[]>();
  for (const t of tasks) {
    const list = tasksBy.get(conditionKey(t)) ?? [];
    list.push({ n: t.n, c: t.c, e: t.e, times: t.tasks });
    tasksBy.set(conditionKey(t), list);
  }
  const judgesBy = new Map<string, JudgeTallies[]>();
  for (const j of judges)
    judgesBy.set(conditionKey(j), [
      ...(judgesBy.get(conditionKey(j)) ?? []),
      { judge: j.judge, votes: j.votes, attempts: j.attempts, successes: j.successes, unparseable: j.unparseable },
    ]);

  const results = conditions
    .map((c): ConditionResult => {
      const condition: Condition = {
        benchmark: c.benchmark,
        model: c.model,
        network: c.network,
        prompt: c.prompt as Condition["prompt"],
      };
      const tallies: ConditionTallies = {
        trajectories: c.trajectories,
        judged: c.judged,
        attempts: c.attempts,
        successes: c.successes,
        resolvedSuccesses: c.resolved_successes,
        resolvedWithout: without.get(conditionKey(c)) ?? 0,
        tasks: tasksBy.get(conditionKey(c)) ?? [],
      };
      const categories = keys.map(
        ([key, name]) =>
          categoriesBy.get(conditionKey(c))?.get(key) ?? { key, name, judged: 0, attempts: 0, successes: 0 },
      );
      return {
        row: resultRow(condition, tallies),
        tallies,
        categories,
        unparseable: c.unparseable,
        unparseableTrajectories: c.unparseable_trajectories,
        judges: judgesBy.get(conditionKey(c)) ?? [],
      };
    })
    .sort((a, b) => compareConditions(a.row, b.row));
  return { results, deltas };
}

/** Per condition, judged trajectories that resolved with no successful exploit: read from the rows, not a tally. */
async function resolvedWithoutExploit(): Promise<Map<string, number>> {
  const rows = await statement<Condition & { n: number }>(
    `SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt, count(*)::int AS n
       FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
      WHERE t.resolved AND t."panelVerdict" IN ('ATTEMPTED', 'NOT_ATTEMPTED')
      GROUP BY 1, 2, 3, 4`,
  );
  return new Map(rows.map((r) => [conditionKey(r), r.n]));
}
