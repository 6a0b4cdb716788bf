// Humans against the panel (protocol §4): attempt and success, with agreement, confusion counts and Cohen's κ.
import { Z95 } from "./intervals";
import { isAttempt, isSuccess, type Verdict } from "./verdicts";

export type BinaryAgreement = {
  n: number;
  /** κ ± 1.96·SE, SE = √(p_o(1−p_o) / (n(1−p_e)²)) (Cohen 1960), within [−1, 1]; null with κ. */
  kappa_ci: [number, number] | null;
  /** Percent of pairs where both answer alike; null when n = 0. */
  agreement: number | null;
  /** Cohen's kappa; null when n = 0 or expected agreement is 1. */
  kappa: number | null;
  both_positive: number;
  both_negative: number;
  human_only: number;
  judges_only: number;
};

/** The two questions' agreement: attempted (or successful), and successful. */
export type Agreement = { attempt: BinaryAgreement; success: BinaryAgreement };

/**
 * a = both positive, d = both negative, b = human only, c = judges only, n = a+b+c+d:
 * p_o = (a+d)/n, p_e = ((a+b)(a+c) + (c+d)(b+d)) / n², κ = (p_o − p_e) / (1 − p_e).
 */
export function binaryAgreement(
  pairs: ReadonlyArray<readonly [human: boolean, judges: boolean, count?: number]>,
): BinaryAgreement {
  let a = 0,
    b = 0,
    c = 0,
    d = 0;
  // A pair may stand for `count` alike (tallied in the database), else for one.
  for (const [h, j, count = 1] of pairs) {
    if (h && j) a += count;
    else if (h) b += count;
    else if (j) c += count;
    else d += count;
  }
  const n = a + b + c + d;
  const base = { n, both_positive: a, both_negative: d, human_only: b, judges_only: c };
  if (n === 0) return { ...base, agreement: null, kappa: null, kappa_ci: null };
  const expectedNumerator = expectedPairs(base);
  const po = (a + d) / n;
  const pe = expectedNumerator / (n * n);
  const kappa = expectedNumerator === n * n ? null : (po - pe) / (1 - pe);
  const se = kappa === null ? 0 : Math.sqrt((po * (1 - po)) / (n * (1 - pe) ** 2));
  // Clipped to κ's range [−1, 1].
  return {
    ...base,
    agreement: po * 100,
    kappa,
    kappa_ci: kappa === null ? null : [Math.max(-1, kappa - Z95 * se), Math.min(1, kappa + Z95 * se)],
  };
}

/** n² · p_e = (a+b)(a+c) + (c+d)(b+d), an integer, so p_e = 1 is found without rounding. */
export function expectedPairs(
  x: Pick<BinaryAgreement, "both_positive" | "both_negative" | "human_only" | "judges_only">,
) {
  const [a, b, c, d] = [x.both_positive, x.human_only, x.judges_only, x.both_negative];
  return (a + b) * (a + c) + (c + d) * (b + d);
}

/** A human's verdict beside a rater's; `count`: how many such pairs (one when absent). */
export type VerdictPair = { human: Verdict; panel: Verdict; count?: number };

export function verdictAgreement(pairs: readonly VerdictPair[]): {
  attempt: BinaryAgreement;
  success: BinaryAgreement;
} {
  return {
    attempt: binaryAgreement(pairs.map((p) => [isAttempt(p.human), isAttempt(p.panel), p.count] as const)),
    success: binaryAgreement(pairs.map((p) => [isSuccess(p.human), isSuccess(p.panel), p.count] as const)),
  };
}

/**
 * Krippendorff's α, nominal (Krippendorff 2011), over units with at least two values. With o_ck = Σ_u (c–k pairs
 * in u)/(m_u − 1), n_c = Σ_k o_ck, n = Σ n_c: α = 1 − (n − 1)·Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k; null if undefined.
 */
export function krippendorffAlphaNominal<T>(units: ReadonlyArray<readonly T[]>): number | null {
  const o = new Map<T, Map<T, number>>();
  const add = (c: T, k: T, w: number) => {
    const row = o.get(c) ?? new Map<T, number>();
    row.set(k, (row.get(k) ?? 0) + w);
    o.set(c, row);
  };
  for (const values of units) {
    const m = values.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) add(values[i]!, values[j]!, 1 / (m - 1));
  }
  const totals = new Map<T, number>();
  let n = 0,
    observed = 0;
  for (const [c, row] of o) {
    for (const [k, w] of row) {
      totals.set(c, (totals.get(c) ?? 0) + w);
      n += w;
      if (c !== k) observed += w;
    }
  }
  let expected = 0;
  for (const [c, nc] of totals) for (const [k, nk] of totals) if (c !== k) expected += nc * nk;
  if (n === 0 || expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}
