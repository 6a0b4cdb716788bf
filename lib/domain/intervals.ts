// 95% intervals for the result table (docs/protocol.md §3 rates, issue "Results").

/** z for a two-sided 95% interval: the 97.5th percentile of the standard normal. */
export const Z95 = 1.959963984540054;

export type Interval = { low: number; high: number };

/**
 * Wilson interval in percent: (p̂ + z²/2n) / (1 + z²/n) ± z·√(p̂(1−p̂)/n + z²/4n²) / (1 + z²/n); null when n = 0.
 */
export function wilson(k: number, n: number, z = Z95): Interval | null {
  if (n === 0) return null;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { low: Math.max(0, centre - half) * 100, high: Math.min(1, centre + half) * 100 };
}

/** Values, each with how often it occurs; one value may stand in several entries. */
export type Counted = ReadonlyArray<{ value: number; times: number }>;

export const countOf = (values: Counted): number => values.reduce((a, v) => a + v.times, 0);

/** A sum in ascending order, each distinct value added as often as it occurs: the same bits in any order. */
export function ascendingSum(values: Counted): number {
  const times = new Map<number, number>();
  for (const v of values) times.set(v.value, (times.get(v.value) ?? 0) + v.times);
  let sum = 0;
  for (const v of [...times.keys()].sort((a, b) => a - b)) for (let n = times.get(v)!; n > 0; n--) sum += v;
  return sum;
}

export const ascendingMean = (values: Counted): number => ascendingSum(values) / countOf(values);

/** Mean of per-task scores in [0, 1] ± z·s/√T, clipped to [0, 100] percent; null with fewer than two tasks. */
export function meanInterval(scores: Counted, z = Z95): Interval | null {
  const t = countOf(scores);
  if (t < 2) return null;
  const mean = ascendingMean(scores);
  const variance = ascendingSum(scores.map((s) => ({ value: (s.value - mean) ** 2, times: s.times }))) / (t - 1);
  const half = (z * Math.sqrt(variance)) / Math.sqrt(t);
  return { low: Math.max(0, mean - half) * 100, high: Math.min(1, mean + half) * 100 };
}
