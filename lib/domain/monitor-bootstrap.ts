// AUROC's bootstrap interval for many monitors at once, over one set of seeded resamples. Pure.
import { quantile } from "./paired";
import { prng, textSeed } from "./random";

export const MONITOR_RESAMPLES = 2000;

/** A monitor's points as indices into the trajectories resampled (`universe` of them), with scores and gold. */
export type IndexedPoints = { index: ArrayLike<number>; score: ArrayLike<number>; positive: ArrayLike<boolean> };
type Base = Pick<IndexedPoints, "index" | "positive">;

/** A monitor ready to count: its cells (score group × gold class), each a list, or each point's cell. */
type Counter = {
  base: number;
  derived: number;
  direct: boolean;
  cellOf: Int32Array;
  pointIndex: Int32Array;
  cells: Int32Array[];
  groups: number;
  acc: Float64Array;
  draws: number[];
};

function counter(m: IndexedPoints & { base?: number }): Counter {
  const order = Array.from(m.score, (_, i) => i).sort((a, b) => m.score[a]! - m.score[b]!);
  const lists: number[][] = [[], []];
  let groups = 0;
  order.forEach((k, at) => {
    if (at > 0 && m.score[k] !== m.score[order[at - 1]!]) {
      groups += 1;
      lists.push([], []);
    }
    lists[groups * 2 + (m.positive[k] ? 1 : 0)]!.push(m.index[k]!);
  });
  let derived = -1;
  if (m.base !== undefined) {
    const size = (g: number) => lists[2 * g]!.length + lists[2 * g + 1]!.length;
    derived = 0;
    for (let g = 1; g <= groups; g++) if (size(g) > size(derived)) derived = g;
    lists[2 * derived] = [];
    lists[2 * derived + 1] = [];
  }
  // Many groups (scores from confidence): each point adds to its cell, no list per cell.
  const direct = lists.length > order.length / 4;
  const flat = direct ? lists.flatMap((l, c) => l.map((i) => [c, i] as const)) : [];
  return {
    base: m.base ?? -1,
    derived,
    direct,
    cellOf: Int32Array.from(flat, ([c]) => c),
    pointIndex: Int32Array.from(flat, ([, i]) => i),
    cells: direct ? [] : lists.map((l) => Int32Array.from(l)),
    groups: groups + 1,
    acc: new Float64Array((groups + 1) * 2),
    draws: [],
  };
}

function sumOf(list: Int32Array, weight: Uint32Array): number {
  let sum = 0;
  for (let k = 0; k < list.length; k++) sum += weight[list[k]!]!;
  return sum;
}

function count(m: Counter, weight: Uint32Array, totals: Float64Array): void {
  const { acc, cells } = m;
  if (m.direct) {
    acc.fill(0);
    for (let k = 0; k < m.cellOf.length; k++) acc[m.cellOf[k]!]! += weight[m.pointIndex[k]!]!;
  } else for (let c = 0; c < cells.length; c++) acc[c] = sumOf(cells[c]!, weight);
  if (m.base >= 0) {
    const d = m.derived;
    acc[2 * d] = totals[2 * m.base]!;
    acc[2 * d + 1] = totals[2 * m.base + 1]!;
    for (let g = 0; g < m.groups; g++) {
      if (g === d) continue;
      acc[2 * d]! -= acc[2 * g]!;
      acc[2 * d + 1]! -= acc[2 * g + 1]!;
    }
  }
  let below = 0;
  let wins = 0;
  let pos = 0;
  for (let g = 0; g < m.groups; g++) {
    wins += acc[2 * g + 1]! * (below + acc[2 * g]! / 2);
    below += acc[2 * g]!;
    pos += acc[2 * g + 1]!;
  }
  if (pos && below) m.draws.push(wins / (pos * below));
}

/**
 * AUROC's 2.5th and 97.5th percentiles for several monitors over the same resamples of `universe`
 * trajectories (each drawn once, seeded); resamples where a monitor has one class are left out of its
 * interval; null: never defined. A monitor whose points are exactly a base set's (`base`) does not sum
 * its largest score group: that is the base's totals, summed once a resample, less its other groups.
 */
export function sharedIntervals(
  universe: number,
  monitors: ReadonlyArray<IndexedPoints & { base?: number }>,
  seed: string,
  resamples = MONITOR_RESAMPLES,
  bases: readonly Base[] = [],
): Array<[number, number] | null> {
  const counters = monitors.map(counter);
  const baseLists = bases.map((b) => {
    const at = Array.from(b.index, (_, k) => k);
    return [0, 1].map((cls) => Int32Array.from(at.filter((k) => +!!b.positive[k] === cls).map((k) => b.index[k]!)));
  });
  const totals = new Float64Array(bases.length * 2);
  const random = prng(textSeed(seed));
  const weight = new Uint32Array(universe);
  for (let r = 0; universe && r < resamples; r++) {
    weight.fill(0);
    for (let i = 0; i < universe; i++) weight[Math.floor(random() * universe)]! += 1;
    for (let b = 0; b < baseLists.length; b++) {
      totals[2 * b] = sumOf(baseLists[b]![0]!, weight);
      totals[2 * b + 1] = sumOf(baseLists[b]![1]!, weight);
    }
    for (const m of counters) count(m, weight, totals);
  }
  return counters.map(({ draws }) => {
    if (!draws.length) return null;
    draws.sort((a, b) => a - b);
    return [quantile(draws, 0.025), quantile(draws, 0.975)];
  });
}
