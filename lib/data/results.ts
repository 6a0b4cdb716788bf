import "server-only";
// The result table's tallies, computed in the database with GROUP BY over the conditions, then
// turned into figures by the same pure functions that compute them from runs (lib/domain/rates.ts).
// An integration test checks the two paths agree on the same rows.
import { db } from "@/lib/db";
import type { ConditionTallies, TaskTally } from "@/lib/domain/rates";
import {
  type CategoryTallies,
  type Condition,
  type ConditionResult,
  compareConditions,
  type JudgeTallies,
  resultRow,
} from "@/lib/domain/results";
import { CATEGORIES, type Category, PANEL_FIELDS } from "@/lib/domain/verdicts";

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
} & Record<`${Lowercase<Category>}_${"a" | "s"}`, number>;

/** The column aliases of a category's panel attempts and successes (upstream_a, upstream_s, ...). */
const tallyAlias = (c: Category, kind: "a" | "s") => `${c.toLowerCase() as Lowercase<Category>}_${kind}` as const;

const perCategory = CATEGORIES.map((c) => {
  const column = `"${PANEL_FIELDS[c]}"`;
  return (
    `count(*) FILTER (WHERE t.${column} IN ('ATTEMPTED', 'SUCCESSFUL'))::int AS ${tallyAlias(c, "a")}, ` +
    `count(*) FILTER (WHERE t.${column} = 'SUCCESSFUL')::int AS ${tallyAlias(c, "s")}`
  );
}).join(",\n    ");

const CONDITION_SQL = `
  SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt,
    count(*)::int AS trajectories,
    count(*) FILTER (WHERE t."panelVerdict" IS NOT NULL)::int AS judged,
    count(*) FILTER (WHERE t."panelVerdict" IN ('ATTEMPTED', 'SUCCESSFUL'))::int AS attempts,
    count(*) FILTER (WHERE t."panelVerdict" = 'SUCCESSFUL')::int AS successes,
    count(*) FILTER (WHERE t."panelVerdict" = 'SUCCESSFUL' AND t.resolved)::int AS resolved_successes,
    coalesce(sum(t."unparseableVotes"), 0)::int AS unparseable,
    count(*) FILTER (WHERE t."unparseableVotes" > 0)::int AS unparseable_trajectories,
    ${perCategory}
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
  GROUP BY b.name, m.name, t.network, t.prompt`;

const TASK_SQL = `
  SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt,
    count(*) FILTER (WHERE t.resolved IS NOT NULL)::int AS n, count(*) FILTER (WHERE t.resolved)::int AS c,
    count(*) FILTER (WHERE t.resolved AND t."panelVerdict" = 'SUCCESSFUL')::int AS e
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
  GROUP BY b.name, m.name, t.network, t.prompt, t."taskId"`;

const JUDGE_SQL = `
  SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt, j.name AS judge,
    count(*)::int AS votes,
    count(*) FILTER (WHERE v.overall IN ('ATTEMPTED', 'SUCCESSFUL'))::int AS attempts,
    count(*) FILTER (WHERE v.overall = 'SUCCESSFUL')::int AS successes,
    count(*) FILTER (WHERE v."parseStatus" = 'UNPARSEABLE')::int AS unparseable
  FROM judge_vote v JOIN trajectory t ON t.id = v."trajectoryId" JOIN judge j ON j.id = v."judgeId"
    JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
  WHERE v.counted
  GROUP BY b.name, m.name, t.network, t.prompt, j.name
  ORDER BY j.name`;

/** Every condition's figures, tallies and breakdowns, in table order. */
export async function getResults(): Promise<ConditionResult[]> {
  const prisma = db();
  const [conditions, tasks, judges] = await Promise.all([
    prisma.$queryRawUnsafe<ConditionSql[]>(CONDITION_SQL),
    prisma.$queryRawUnsafe<Array<Condition & TaskTally>>(TASK_SQL),
    prisma.$queryRawUnsafe<Array<Condition & JudgeTallies>>(JUDGE_SQL),
  ]);
  const tasksBy = new Map<string, TaskTally[]>();
  for (const t of tasks)
    tasksBy.set(conditionKey(t), [...(tasksBy.get(conditionKey(t)) ?? []), { n: t.n, c: t.c, e: t.e }]);
  const judgesBy = new Map<string, JudgeTallies[]>();
  for (const j of judges)
    judgesBy.set(conditionKey(j), [
      ...(judgesBy.get(conditionKey(j)) ?? []),
      { judge: j.judge, votes: j.votes, attempts: j.attempts, successes: j.successes, unparseable: j.unparseable },
    ]);

  return conditions
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
        tasks: tasksBy.get(conditionKey(c)) ?? [],
      };
      const categories: CategoryTallies = {
        judged: c.judged,
        attempts: Object.fromEntries(CATEGORIES.map((k) => [k, c[tallyAlias(k, "a")]])) as Record<Category, number>,
        successes: Object.fromEntries(CATEGORIES.map((k) => [k, c[tallyAlias(k, "s")]])) as Record<Category, number>,
      };
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
}
