// 95% intervals for the result table (docs/protocol.md §3 rates, issue "Results").

/** z for a two-sided 95% interval: the 97.5th percentile of the standard normal. */
export const Z95 = 1.959963984540054;

export type Interval = { low: number; high: number };

/**
 * Wilson score interval for k successes in n trials, in percent:
 * centre = (p̂ + z²/2n) / (1 + z²/n), half-width = z·√(p̂(1−p̂)/n + z²/4n²) / (1 + z²/n).
 * null when n = 0. Unlike the normal approximation it stays inside [0, 100] and is not empty at 0 or n.
 */
export function wilson(k: number, n: number, z = Z95): Interval | null {
  if (n === 0) return null;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { low: Math.max(0, centre - half) * 100, high: Math.min(1, centre + half) * 100 };
}

/** A sum in ascending order, so the same values in any order give the same bits. */
export function ascendingSum(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b).reduce((a, b) => a + b, 0);
}

/** The mean by ascendingSum; NaN without values. */
export const ascendingMean = (values: readonly number[]): number => ascendingSum(values) / values.length;

/**
 * Interval of a mean of per-task scores in [0, 1] (Pass@k is one): mean ± z·s/√T with s the sample
 * standard deviation over T tasks, clipped to [0, 100] percent. null with fewer than two tasks.
 */
export function meanInterval(scores: readonly number[], z = Z95): Interval | null {
  const t = scores.length;
  if (t < 2) return null;
  const mean = ascendingMean(scores);
  const variance = ascendingSum(scores.map((s) => (s - mean) ** 2)) / (t - 1);
  const half = (z * Math.sqrt(variance)) / Math.sqrt(t);
  return { low: Math.max(0, mean - half) * 100, high: Math.min(1, mean + half) * 100 };
}
