// The result table (protocol §3) from per-condition tallies: figures, intervals, changes, breakdowns.
import { type Interval, meanInterval, wilson } from "./intervals";
import { type ConditionFigures, type ConditionTallies, figuresFromTallies, passAtKScores, percent } from "./rates";
import type { Category } from "./verdicts";

export type Prompt = "vanilla" | "principled";
export type Condition = { benchmark: string; model: string; network: boolean; prompt: Prompt };

export const RATE_KEYS = ["pass_at_1", "pass_at_3", "attempt_rate", "success_rate", "resolved_exploit_rate"] as const;
export type RateKey = (typeof RATE_KEYS)[number];

export const RATE_LABELS: Record<RateKey, string> = {
  pass_at_1: "Pass@1",
  pass_at_3: "Pass@3",
  attempt_rate: "Attempt %",
  success_rate: "Success %",
  // Resolved with a successful exploit, not the resolve rate (that is Pass@1): named so on every page.
  resolved_exploit_rate: "Resolved with exploit %",
};

export type ResultRow = Condition & ConditionFigures & { intervals: Record<RateKey, Interval | null> };

export function resultRow(condition: Condition, t: ConditionTallies): ResultRow {
  return {
    ...condition,
    ...figuresFromTallies(t),
    intervals: {
      pass_at_1: meanInterval(passAtKScores(t.tasks, 1)),
      pass_at_3: meanInterval(passAtKScores(t.tasks, 3)),
      attempt_rate: wilson(t.attempts, t.judged),
      success_rate: wilson(t.successes, t.judged),
      resolved_exploit_rate: wilson(t.resolvedSuccesses, t.judged),
    },
  };
}

export function compareConditions(a: Condition, b: Condition): number {
  return (
    a.benchmark.localeCompare(b.benchmark) ||
    a.model.localeCompare(b.model) ||
    Number(b.network) - Number(a.network) ||
    (a.prompt === b.prompt ? 0 : a.prompt === "vanilla" ? -1 : 1)
  );
}

export type PromptDelta = {
  benchmark: string;
  model: string;
  network: boolean;
  deltas: Record<RateKey, number | null>;
};

/** principled − vanilla, in percentage points, per benchmark, model and network; null where either is undefined. */
export function promptDeltas(rows: readonly ResultRow[]): PromptDelta[] {
  const key = (r: Condition) => `${r.benchmark}\u0000${r.model}\u0000${r.network}`;
  const vanilla = new Map(rows.filter((r) => r.prompt === "vanilla").map((r) => [key(r), r]));
  return rows
    .filter((r) => r.prompt === "principled" && vanilla.has(key(r)))
    .map((p) => {
      const v = vanilla.get(key(p))!;
      const deltas = Object.fromEntries(
        RATE_KEYS.map((k) => [k, p[k] === null || v[k] === null ? null : p[k]! - v[k]!]),
      ) as Record<RateKey, number | null>;
      return { benchmark: p.benchmark, model: p.model, network: p.network, deltas };
    })
    .sort((a, b) => compareConditions({ ...a, prompt: "vanilla" }, { ...b, prompt: "vanilla" }));
}

/** A category's panel verdicts in a condition: trajectories with one in it (judged), attempts, successes. */
export type CategoryTally = { key: Category; name?: string; judged: number; attempts: number; successes: number };
/** A condition's categories, in the categories' order (contract "Categories" 3). */
export type CategoryTallies = readonly CategoryTally[];

export type CategoryRate = {
  judged: number;
  attempt_rate: number | null;
  success_rate: number | null;
  attempt: Interval | null;
  success: Interval | null;
};

/** Each category's rates over the trajectories with a panel verdict in it; undefined where it has none. */
export function categoryRate(t: CategoryTallies, key: Category): CategoryRate {
  const c = t.find((x) => x.key === key) ?? { judged: 0, attempts: 0, successes: 0 };
  return {
    judged: c.judged,
    attempt_rate: percent(c.attempts, c.judged),
    success_rate: percent(c.successes, c.judged),
    attempt: wilson(c.attempts, c.judged),
    success: wilson(c.successes, c.judged),
  };
}

/** The categories any condition counts, in order: every condition lists them all (lib/data/results.ts). */
export const categoriesCounted = (results: ReadonlyArray<{ categories: CategoryTallies }>): Category[] =>
  results[0]?.categories.map((c) => c.key) ?? [];

export type JudgeTallies = { judge: string; votes: number; attempts: number; successes: number; unparseable: number };

export function judgeRates(t: JudgeTallies) {
  return {
    ...t,
    attempt_rate: percent(t.attempts, t.votes),
    success_rate: percent(t.successes, t.votes),
    attempt: wilson(t.attempts, t.votes),
    success: wilson(t.successes, t.votes),
  };
}

/** One condition's row of the table with everything its breakdowns are computed from. */
export type ConditionResult = {
  row: ResultRow;
  tallies: ConditionTallies;
  categories: CategoryTallies;
  /** Unparseable answers among the condition's votes, and trajectories with at least one. */
  unparseable: number;
  unparseableTrajectories: number;
  judges: JudgeTallies[];
};
