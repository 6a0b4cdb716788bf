// Paired statistics of a change from one side to the other (decision 29): vanilla → principled within
// benchmark × model × network, network on → off within benchmark × model × prompt.
// - Attempt, success, resolved: run r of task T pairs across sides when both are judged; b = yes then no,
//   c = no then yes; McNemar's exact p = min(1, 2·Σ_{i≤min(b,c)} C(b+c, i)·2^−(b+c)), change (c − b)/n.
// - Every rate: a 95% bootstrap interval over tasks run on both sides (2.5th and 97.5th percentiles of
//   defined resamples), seeded by the group's names.

import { prng, textSeed } from "./random";
import { passAtKForTask, percent } from "./rates";
import { RATE_KEYS, type RateKey } from "./results";
import { isAttempt, isSuccess, type Verdict } from "./verdicts";

export const BOOTSTRAP_RESAMPLES = 2000;
export const BINARY_KEYS = ["attempt_rate", "success_rate", "resolved_exploit_rate"] as const;
export type BinaryKey = (typeof BINARY_KEYS)[number];
/** Whether a rate is one of the exploit rates, which McNemar's test also compares. */
export const isBinary = (k: string): k is BinaryKey => (BINARY_KEYS as readonly string[]).includes(k);

/** A run on one side of a change: "before" (vanilla, network on), "after" (principled, network off). */
export type PairedRun = {
  task: string;
  run: number;
  side: "before" | "after";
  resolved: boolean | null;
  panel: Verdict | null;
};
export type Group = { benchmark: string; model: string; network: boolean };
export type NetworkGroup = { benchmark: string; model: string; prompt: "vanilla" | "principled" };

/** McNemar's exact two-sided p-value for b and c discordant pairs. */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const logFact = [0];
  for (let i = 1; i <= n; i++) logFact.push(logFact[i - 1]! + Math.log(i));
  let tail = 0;
  for (let i = 0; i <= Math.min(b, c); i++)
    tail += Math.exp(logFact[n]! - logFact[i]! - logFact[n - i]! - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

const ANSWER: Record<BinaryKey, (r: PairedRun) => boolean> = {
  attempt_rate: (r) => isAttempt(r.panel!),
  success_rate: (r) => isSuccess(r.panel!),
  resolved_exploit_rate: (r) => isSuccess(r.panel!) && r.resolved === true,
};

export type McNemar = {
  /** Pairs: the same task and run judged on both sides. */
  pairs: number;
  before_yes: number;
  after_yes: number;
  b: number;
  c: number;
  /** (c − b) / pairs, in percentage points; null without pairs. */
  change: number | null;
  p: number;
};

export function mcnemarOf(runs: readonly PairedRun[], key: BinaryKey): McNemar {
  const first = new Map<string, PairedRun>();
  for (const r of runs) if (r.side === "before" && r.panel !== null) first.set(`${r.task}\u0000${r.run}`, r);
  let pairs = 0,
    beforeYes = 0,
    afterYes = 0,
    b = 0,
    c = 0;
  for (const p of runs) {
    if (p.side !== "after" || p.panel === null) continue;
    const v = first.get(`${p.task}\u0000${p.run}`);
    if (!v) continue;
    const [before, after] = [ANSWER[key](v), ANSWER[key](p)];
    pairs += 1;
    if (before) beforeYes += 1;
    if (after) afterYes += 1;
    if (before && !after) b += 1;
    if (!before && after) c += 1;
  }
  return {
    pairs,
    before_yes: beforeYes,
    after_yes: afterYes,
    b,
    c,
    change: pairs ? ((c - b) / pairs) * 100 : null,
    p: mcnemarExact(b, c),
  };
}

/** A task's runs on one side, as sums from which every figure of §3 follows. */
type TaskSums = {
  n: number;
  c: number;
  judged: number;
  attempts: number;
  successes: number;
  resolvedSuccesses: number;
  /** The task's pass@1 and pass@3 (c/n and the unbiased estimator), once: every resample reads them. */
  pass1: number;
  pass3: number;
};

function sumsOf(runs: readonly PairedRun[]): TaskSums {
  const s = { n: 0, c: 0, judged: 0, attempts: 0, successes: 0, resolvedSuccesses: 0, pass1: 0, pass3: 0 };
  for (const r of runs) {
    if (r.resolved !== null) {
      s.n += 1;
      if (r.resolved) s.c += 1;
    }
    if (r.panel === null) continue;
    s.judged += 1;
    if (isAttempt(r.panel)) s.attempts += 1;
    if (isSuccess(r.panel)) {
      s.successes += 1;
      if (r.resolved === true) s.resolvedSuccesses += 1;
    }
  }
  if (s.n > 0) [s.pass1, s.pass3] = [s.c / s.n, passAtKForTask(s.n, s.c, 3)!];
  return s;
}

/** The five figures of §3 over a resample (indices into `tasks`), written into `out`, NaN where undefined. */
function figuresInto(tasks: readonly TaskSums[], chosen: readonly number[], out: Float64Array): void {
  let p1 = 0,
    p3 = 0,
    known = 0,
    judged = 0,
    attempts = 0,
    successes = 0,
    resolved = 0;
  for (let j = 0; j < chosen.length; j++) {
    const t = tasks[chosen[j]!]!;
    if (t.n > 0) {
      known += 1;
      p1 += t.pass1;
      p3 += t.pass3;
    }
    judged += t.judged;
    attempts += t.attempts;
    successes += t.successes;
    resolved += t.resolvedSuccesses;
  }
  out[0] = known ? (p1 / known) * 100 : NaN;
  out[1] = known ? (p3 / known) * 100 : NaN;
  out[2] = percent(attempts, judged) ?? NaN;
  out[3] = percent(successes, judged) ?? NaN;
  out[4] = percent(resolved, judged) ?? NaN;
}

export function quantile(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]!) - sorted[lo]!);
}

export type BootstrapChange = {
  /** after − before on the tasks run on both sides, in percentage points; null if undefined. */
  change: number | null;
  low: number | null;
  high: number | null;
  /** Resamples drawn, and those in which the change was defined (the interval's). */
  resamples: number;
  defined: number;
};

/** Each rate's change and its bootstrap interval, over the tasks run on both sides. */
export function bootstrapChanges(
  runs: readonly PairedRun[],
  seed: string,
  resamples = BOOTSTRAP_RESAMPLES,
): { tasks: number; trajectories: number; judged: number; changes: Record<RateKey, BootstrapChange> } {
  const byTask = new Map<string, Record<PairedRun["side"], PairedRun[]>>();
  for (const r of runs) {
    const t = byTask.get(r.task) ?? { before: [], after: [] };
    t[r.side].push(r);
    byTask.set(r.task, t);
  }
  const both = [...byTask.keys()].sort().filter((k) => byTask.get(k)!.before.length && byTask.get(k)!.after.length);
  const before = both.map((k) => sumsOf(byTask.get(k)!.before));
  const after = both.map((k) => sumsOf(byTask.get(k)!.after));
  // after − before per rate (RATE_KEYS' order) over a multiset of tasks, NaN where undefined.
  const [v, p, d] = [new Float64Array(RATE_KEYS.length), new Float64Array(RATE_KEYS.length), [] as number[]];
  const change = (chosen: readonly number[]) => {
    figuresInto(before, chosen, v);
    figuresInto(after, chosen, p);
    for (let k = 0; k < RATE_KEYS.length; k++) d[k] = p[k]! - v[k]!;
    return d;
  };
  const whole = [...change(both.map((_, i) => i))];
  const draws = RATE_KEYS.map(() => [] as number[]);
  const random = prng(textSeed(seed));
  const chosen = new Array<number>(both.length);
  for (let r = 0; both.length && r < resamples; r++) {
    for (let i = 0; i < both.length; i++) chosen[i] = Math.floor(random() * both.length);
    change(chosen);
    for (let k = 0; k < RATE_KEYS.length; k++) if (!Number.isNaN(d[k]!)) draws[k]!.push(d[k]!);
  }
  const changes = Object.fromEntries(
    RATE_KEYS.map((k, i) => {
      const sorted = draws[i]!.sort((a, b) => a - b);
      return [
        k,
        {
          change: Number.isNaN(whole[i]!) ? null : whole[i]!,
          low: sorted.length ? quantile(sorted, 0.025) : null,
          high: sorted.length ? quantile(sorted, 0.975) : null,
          resamples: both.length ? resamples : 0,
          defined: sorted.length,
        },
      ];
    }),
  ) as Record<RateKey, BootstrapChange>;
  const runsOn = both.flatMap((k) => [...byTask.get(k)!.before, ...byTask.get(k)!.after]);
  return {
    tasks: both.length,
    trajectories: runsOn.length,
    judged: runsOn.filter((r) => r.panel !== null).length,
    changes,
  };
}

export type PairedStats = {
  /** Tasks run on both sides (the bootstrap's units), their trajectories and the judged ones. */
  tasks: number;
  trajectories: number;
  judged: number;
  bootstrap: Record<RateKey, BootstrapChange>;
  mcnemar: Record<BinaryKey, McNemar>;
};
/** Vanilla → principled. */
export type PairedChange = Group & PairedStats;
/** Network on → off. */
export type NetworkChange = NetworkGroup & PairedStats;

function pairedStats(runs: readonly PairedRun[], seed: string, resamples: number): PairedStats {
  const { tasks, trajectories, judged, changes } = bootstrapChanges(runs, seed, resamples);
  return {
    tasks,
    trajectories,
    judged,
    bootstrap: changes,
    mcnemar: Object.fromEntries(BINARY_KEYS.map((k) => [k, mcnemarOf(runs, k)])) as Record<BinaryKey, McNemar>,
  };
}

/** The paired change of one group; the bootstrap's seed is the group's names. */
export function pairedChange(group: Group, runs: readonly PairedRun[], resamples = BOOTSTRAP_RESAMPLES): PairedChange {
  return { ...group, ...pairedStats(runs, `${group.benchmark}\u0000${group.model}\u0000${group.network}`, resamples) };
}

export function networkChange(
  group: NetworkGroup,
  runs: readonly PairedRun[],
  resamples = BOOTSTRAP_RESAMPLES,
): NetworkChange {
  const seed = `${group.benchmark}\u0000${group.model}\u0000${group.prompt}\u0000network`;
  return { ...group, ...pairedStats(runs, seed, resamples) };
}
