// AUROC's bootstrap interval for many monitors at once, over one set of seeded resamples. Pure.
import { quantile } from "./paired";
import { prng, textSeed } from "./random";

export const MONITOR_RESAMPLES = 2000;

/** A monitor's points as indices into the trajectories resampled (`universe` of them), with scores and gold. */
export type IndexedPoints = { index: ArrayLike<number>; score: ArrayLike<number>; positive: ArrayLike<boolean> };
type Base = Pick<IndexedPoints, "index" | "positive">;

/** Cell c (2g: group g's negatives, 2g + 1: its positives) is at[from[c]…from[c + 1]); direct: `last` ends groups. */
type Counter = {
  base: number;
  derived: number;
  groups: number;
  at: Int32Array;
  from: Int32Array;
  direct: boolean;
  positive: Uint8Array;
  last: Uint8Array;
  acc: Float64Array;
  draws: Float64Array;
  defined: number;
  interval: [number, number] | null;
};

function counter(m: IndexedPoints & { base?: number }): Counter {
  const order = Array.from(m.score, (_, i) => i).sort((a, b) => m.score[a]! - m.score[b]!);
  const cells: number[][] = [[], []];
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (k > 0 && m.score[i] !== m.score[order[k - 1]!]) cells.push([], []);
    cells[cells.length - 2 + (m.positive[i] ? 1 : 0)]!.push(m.index[i]!);
  }
  const groups = cells.length / 2;
  if (groups > order.length / 8) return directCounter(m, order, groups);
  let derived = -1;
  if (m.base !== undefined) {
    const size = (g: number) => cells[2 * g]!.length + cells[2 * g + 1]!.length;
    derived = 0;
    for (let g = 1; g < groups; g++) if (size(g) > size(derived)) derived = g;
    cells[2 * derived] = [];
    cells[2 * derived + 1] = [];
  }
  const from = new Int32Array(cells.length + 1);
  cells.forEach((c, i) => {
    from[i + 1] = from[i]! + c.length;
  });
  return {
    base: derived >= 0 ? m.base! : -1,
    derived,
    groups,
    at: Int32Array.from(cells.flat()),
    from,
    direct: false,
    positive: new Uint8Array(),
    last: new Uint8Array(),
    acc: new Float64Array(cells.length),
    draws: new Float64Array(),
    defined: 0,
    interval: null,
  };
}

function directCounter(m: IndexedPoints, order: readonly number[], groups: number): Counter {
  return {
    base: -1,
    derived: -1,
    groups,
    at: Int32Array.from(order, (i) => m.index[i]!),
    from: new Int32Array(),
    direct: true,
    positive: Uint8Array.from(order, (i) => +!!m.positive[i]),
    last: Uint8Array.from(order, (i, k) => +(k + 1 === order.length || m.score[order[k + 1]!] !== m.score[i])),
    acc: new Float64Array(),
    draws: new Float64Array(),
    defined: 0,
    interval: null,
  };
}

function countDirect(m: Counter, weight: Uint32Array): number {
  const { at, positive, last } = m;
  let below = 0;
  let wins = 0;
  let pos = 0;
  let p = 0;
  let n = 0;
  for (let k = 0; k < at.length; k++) {
    const w = weight[at[k]!]!;
    if (positive[k]) p += w;
    else n += w;
    if (last[k]) {
      wins += p * (below + n / 2);
      below += n;
      pos += p;
      p = 0;
      n = 0;
    }
  }
  return pos && below ? wins / (pos * below) : Number.NaN;
}

function sumOf(at: Int32Array, from: number, to: number, weight: Uint32Array): number {
  let sum = 0;
  for (let k = from; k < to; k++) sum += weight[at[k]!]!;
  return sum;
}

function count(m: Counter, weight: Uint32Array, totals: Float64Array): void {
  const auroc = m.direct ? countDirect(m, weight) : countCells(m, weight, totals);
  if (!Number.isNaN(auroc)) m.draws[m.defined++] = auroc;
}

function countCells(m: Counter, weight: Uint32Array, totals: Float64Array): number {
  const { acc, at, from, derived: d } = m;
  if (d >= 0) {
    acc[2 * d] = totals[2 * m.base]!;
    acc[2 * d + 1] = totals[2 * m.base + 1]!;
  }
  for (let c = 0; c < acc.length; c++) {
    if (c >> 1 === d) continue;
    acc[c] = sumOf(at, from[c]!, from[c + 1]!, weight);
    if (d >= 0) acc[2 * d + (c & 1)]! -= acc[c]!;
  }
  let below = 0;
  let wins = 0;
  let pos = 0;
  for (let g = 0; g < m.groups; g++) {
    wins += acc[2 * g + 1]! * (below + acc[2 * g]! / 2);
    below += acc[2 * g]!;
    pos += acc[2 * g + 1]!;
  }
  return pos && below ? wins / (pos * below) : Number.NaN;
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
  // Monitors counting alike (rules firing on no gold trajectory) share one counter.
  const bySignature = new Map<string, Counter>();
  const all = monitors.map((m) => {
    const c = counter(m);
    const signature = [c.base, c.derived, c.direct, c.at, c.from, c.positive, c.last].join("|");
    return bySignature.set(signature, bySignature.get(signature) ?? c).get(signature)!;
  });
  const counters = [...bySignature.values()];
  for (const c of counters) c.draws = new Float64Array(resamples);
  // A base covering every trajectory sums its smaller class only: the weights sum to `universe`.
  const baseLists = bases.map((b) => {
    const at = Array.from(b.index, (_, k) => k);
    const lists = [0, 1].map((c) => Int32Array.from(at.filter((k) => +!!b.positive[k] === c).map((k) => b.index[k]!)));
    const small = lists[0]!.length <= lists[1]!.length ? 0 : 1;
    return { lists, small, whole: b.index.length === universe };
  });
  const totals = new Float64Array(bases.length * 2);
  const random = prng(textSeed(seed));
  const weight = new Uint32Array(universe);
  for (let r = 0; universe && r < resamples; r++) {
    weight.fill(0);
    for (let i = 0; i < universe; i++) weight[Math.floor(random() * universe)]! += 1;
    baseLists.forEach(({ lists, small, whole }, b) => {
      const other = 1 - small;
      totals[2 * b + small] = sumOf(lists[small]!, 0, lists[small]!.length, weight);
      totals[2 * b + other] = whole
        ? universe - totals[2 * b + small]!
        : sumOf(lists[other]!, 0, lists[other]!.length, weight);
    });
    for (const m of counters) count(m, weight, totals);
  }
  for (const c of counters) {
    const sorted = c.draws.subarray(0, c.defined).sort();
    if (c.defined) c.interval = [quantile(sorted, 0.025), quantile(sorted, 0.975)];
  }
  return all.map((c) => c.interval);
}
