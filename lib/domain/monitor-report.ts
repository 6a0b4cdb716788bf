// Every monitor against gold (protocol §9): each judge at each prompt version, each saved panel, each rule.

import { sharedIntervals } from "./monitor-bootstrap";
import {
  ALL,
  goldPositive,
  judgeScore,
  type MonitorFigures,
  monitorFigures,
  panelScore,
  type ScoredPoint,
} from "./monitors";
import { countedVotes, type PanelMemberRef } from "./panel-compare";
import type { Verdicts } from "./verdicts";

export type MonitorGold = { trajectoryId: number; gold: Verdicts; network: boolean; prompt: string };
export type MonitorVote = {
  trajectoryId: number;
  judge: string;
  promptVersion: number | null;
  verdicts: Verdicts;
  confidence: Readonly<Record<string, number>> | null;
  order: number;
};
export type MonitorPanel = { name: string; inForce: boolean; members: readonly PanelMemberRef[] };
export type MonitorRule = { name: string; category: string; fires: readonly number[] };
export type MonitorInput = {
  gold: readonly MonitorGold[];
  votes: readonly MonitorVote[];
  panels: readonly MonitorPanel[];
  rules: readonly MonitorRule[];
  /** The categories measured, in order (a study's, or all in force). */
  categories: ReadonlyArray<{ key: string; name: string }>;
};

export type MonitorKind = "judge" | "panel" | "rule";
export type MonitorRow = {
  monitor: string;
  kind: MonitorKind;
  /** A judge's prompt version (null: its imported votes); null for panels and rules. */
  prompt_version: number | null;
  category: string;
  category_name: string;
  in_force: boolean;
  /** Points scored from the judge's own confidence (0: by verdicts only, or not a judge). */
  confident: number;
  /** Overall rows of judges and panels: each trajectory's [id, score, positive 1/0], for the pictures. */
  scores?: Array<[number, number, 0 | 1]>;
} & MonitorFigures;
export type MonitorConditionRow = MonitorRow & { network: boolean; prompt: string };

export type MonitorReport = {
  rows: MonitorRow[];
  /** Overall, per network × prompt, for conditions with at least `min_gold` gold labels. */
  by_condition: MonitorConditionRow[];
  conditions: Array<{ network: boolean; prompt: string; gold: number; measured: boolean }>;
  min_gold: number;
};

/** Below this many gold labels a condition is not measured on its own (its figures would say little). */
export const MIN_CONDITION_GOLD = 20;

/** One monitor: its name and kind, and its score on a trajectory in a category (null: it gives none). */
type Monitor = Pick<MonitorRow, "monitor" | "kind" | "prompt_version" | "in_force"> & {
  categories: readonly string[];
  score: (trajectoryId: number, key: string) => number | null;
  confident?: (trajectoryId: number, key: string) => boolean;
};

function judgeMonitors(votes: readonly MonitorVote[], keys: readonly string[]): Monitor[] {
  const groups = new Map<string, Map<number, MonitorVote>>();
  for (const v of votes) {
    const k = `${v.judge}\u0000${v.promptVersion ?? 0}`;
    const g = groups.get(k) ?? new Map<number, MonitorVote>();
    g.set(v.trajectoryId, v);
    groups.set(k, g);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, byTrajectory]) => {
      const first = byTrajectory.values().next().value!;
      return {
        monitor: first.judge,
        kind: "judge",
        prompt_version: first.promptVersion,
        in_force: false,
        categories: [ALL, ...keys],
        score: (id, key) => {
          const v = byTrajectory.get(id);
          return v ? judgeScore(v.verdicts, v.confidence, key) : null;
        },
        confident: (id, key) => {
          const c = byTrajectory.get(id)?.confidence;
          return !!c && (key === ALL ? Object.keys(c).length > 0 : key in c);
        },
      };
    });
}

function panelMonitors(panels: readonly MonitorPanel[], votes: readonly MonitorVote[], keys: readonly string[]) {
  const stored = votes.map((v) => ({ ...v, tokens: null, cost: null }));
  return panels.map((p): Monitor => {
    const byTrajectory = new Map<number, Verdicts[]>();
    for (const v of countedVotes(p.members, stored))
      byTrajectory.set(v.trajectoryId, [...(byTrajectory.get(v.trajectoryId) ?? []), v.verdicts]);
    return {
      monitor: p.name,
      kind: "panel",
      prompt_version: null,
      in_force: p.inForce,
      categories: [ALL, ...keys],
      score: (id, key) => panelScore(byTrajectory.get(id) ?? [], key),
    };
  });
}

function ruleMonitors(rules: readonly MonitorRule[], keys: readonly string[]): Monitor[] {
  return [...rules]
    .sort((a, b) => keys.indexOf(a.category) - keys.indexOf(b.category) || a.name.localeCompare(b.name))
    .map((r) => {
      const fires = new Set(r.fires);
      return {
        monitor: r.name,
        kind: "rule",
        prompt_version: null,
        in_force: false,
        categories: keys.includes(r.category) ? [ALL, r.category] : [ALL],
        score: (id) => (fires.has(id) ? 1 : 0),
      };
    });
}

type Given = { trajectoryId: number; i: number; positive: boolean };

function pointsOf(m: Monitor, given: readonly Given[], key: string): ScoredPoint[] {
  const points: ScoredPoint[] = [];
  for (const g of given) {
    const score = m.score(g.trajectoryId, key);
    if (score !== null) points.push({ trajectoryId: g.trajectoryId, score, positive: g.positive });
  }
  return points;
}

/** `panelsOnly`: the panels alone (the compare page's two). */
export function monitorReport(input: MonitorInput, resamples?: number, panelsOnly = false): MonitorReport {
  const keys = input.categories.map((c) => c.key);
  const names = new Map<string, string>([
    [ALL, "All categories"],
    ...input.categories.map((c) => [c.key, c.name] as [string, string]),
  ]);
  const monitors = [
    ...panelMonitors(input.panels, input.votes, keys),
    ...(panelsOnly ? [] : [...judgeMonitors(input.votes, keys), ...ruleMonitors(input.rules, keys)]),
  ];
  const conditions = new Map<string, MonitorGold[]>();
  for (const g of input.gold) {
    const k = `${g.network ? 0 : 1}|${g.prompt}`;
    conditions
      .set(k, conditions.get(k) ?? [])
      .get(k)!
      .push(g);
  }
  const ordered = [...conditions.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, gs]) => gs);
  const measured = ordered.filter((gs) => gs.length >= MIN_CONDITION_GOLD);
  // Part 0 is every gold trajectory, then each condition measured: all read from the same resamples.
  const parts = [input.gold, ...measured];
  const specs: Spec[] = [
    ...monitors.flatMap((m) => m.categories.map((key): Spec => [m, key, 0])),
    ...measured.flatMap((_, c) => monitors.map((m): Spec => [m, ALL, c + 1])),
  ];
  const rows = measureAll(specs, parts, names, resamples);
  return {
    rows: rows.filter((r, i) => specs[i]![2] === 0 && r.n > 0),
    by_condition: rows.flatMap((r, i) => {
      const part = specs[i]![2];
      if (part === 0 || r.n === 0) return [];
      const { network, prompt } = parts[part]![0]!;
      return [{ ...r, network, prompt }];
    }),
    conditions: ordered.map((gs) => ({
      network: gs[0]!.network,
      prompt: gs[0]!.prompt,
      gold: gs.length,
      measured: gs.length >= MIN_CONDITION_GOLD,
    })),
    min_gold: MIN_CONDITION_GOLD,
  };
}

/** A monitor, a category key and the part of the gold trajectories it is measured on. */
type Spec = [Monitor, string, number];

/** Every spec's figures, their intervals from one set of resamples of the gold trajectories (part 0). */
function measureAll(
  specs: readonly Spec[],
  parts: ReadonlyArray<readonly MonitorGold[]>,
  names: ReadonlyMap<string, string>,
  resamples?: number,
): MonitorRow[] {
  const gold = parts[0]!;
  const at = new Map(gold.map((g, i) => [g.trajectoryId, i]));
  // Each part's and key's gold trajectories: a monitor scoring every one of them counts from their totals.
  const baseKeys = [...new Set(specs.map(([, key, part]) => `${part}\u0000${key}`))];
  const specBase = specs.map(([, key, part]) => baseKeys.indexOf(`${part}\u0000${key}`));
  const given = baseKeys.map((k): Given[] => {
    const [part, key] = k.split("\u0000") as [string, string];
    return parts[Number(part)]!.flatMap((g) => {
      const positive = goldPositive(g.gold, key);
      return positive === null ? [] : [{ trajectoryId: g.trajectoryId, i: at.get(g.trajectoryId)!, positive }];
    });
  });
  const bases = given.map((gs) => ({ index: gs.map((g) => g.i), positive: gs.map((g) => g.positive) }));
  const points = specs.map(([m, key], s) => pointsOf(m, given[specBase[s]!]!, key));
  // By score (ties in gold's order): every later sort finds them sorted.
  const sorted = points.map((ps) => [...ps].sort((a, b) => a.score - b.score));
  const indexed = sorted.map((ps, s) => {
    const m = {
      index: ps.map((p) => at.get(p.trajectoryId)!),
      score: ps.map((p) => p.score),
      positive: ps.map((p) => p.positive),
    };
    return ps.length === bases[specBase[s]!]!.index.length ? { ...m, base: specBase[s]! } : m;
  });
  const intervals = sharedIntervals(gold.length, indexed, ALL, resamples, bases);
  return specs.map(([m, key, part], i): MonitorRow => {
    const ps = points[i]!;
    return {
      monitor: m.monitor,
      kind: m.kind,
      prompt_version: m.prompt_version,
      category: key,
      category_name: names.get(key) ?? key,
      in_force: m.in_force,
      confident: m.confident ? ps.filter((p) => m.confident!(p.trajectoryId, key)).length : 0,
      ...monitorFigures(sorted[i]!, ALL, resamples, intervals[i]!),
      ...(key === ALL && m.kind !== "rule" && part === 0
        ? { scores: ps.map((p): [number, number, 0 | 1] => [p.trajectoryId, p.score, p.positive ? 1 : 0]) }
        : {}),
    };
  });
}
