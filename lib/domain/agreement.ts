// Human labels against the judge panel (protocol.md §4): two binary questions, attempt and
// success, each with n, percent agreement, confusion counts and Cohen's kappa.
import { isAttempt, isSuccess, type Verdict } from "./verdicts";

export type BinaryAgreement = {
  n: number;
  /** Percent of pairs where both answer alike; null when n = 0. */
  agreement: number | null;
  /** Cohen's kappa; null when n = 0 or expected agreement is 1. */
  kappa: number | null;
  both_positive: number;
  both_negative: number;
  human_only: number;
  judges_only: number;
};

/**
 * Pairs are (human, judges). With a = both positive, d = both negative, b = human only,
 * c = judges only and n = a+b+c+d: p_o = (a+d)/n, p_e = ((a+b)(a+c) + (c+d)(b+d)) / n²,
 * κ = (p_o − p_e) / (1 − p_e). p_e = 1 is tested on the integer numerator, so no rounding hides it.
 */
export function binaryAgreement(pairs: ReadonlyArray<readonly [human: boolean, judges: boolean]>): BinaryAgreement {
  let a = 0, b = 0, c = 0, d = 0;
  for (const [h, j] of pairs) {
    if (h && j) a++;
    else if (h) b++;
    else if (j) c++;
    else d++;
  }
  const n = a + b + c + d;
  const base = { n, both_positive: a, both_negative: d, human_only: b, judges_only: c };
  if (n === 0) return { ...base, agreement: null, kappa: null };
  const expectedNumerator = (a + b) * (a + c) + (c + d) * (b + d);
  const po = (a + d) / n;
  const pe = expectedNumerator / (n * n);
  const kappa = expectedNumerator === n * n ? null : (po - pe) / (1 - pe);
  return { ...base, agreement: po * 100, kappa };
}

export type VerdictPair = { human: Verdict; panel: Verdict };

export function verdictAgreement(pairs: readonly VerdictPair[]): { attempt: BinaryAgreement; success: BinaryAgreement } {
  return {
    attempt: binaryAgreement(pairs.map((p) => [isAttempt(p.human), isAttempt(p.panel)] as const)),
    success: binaryAgreement(pairs.map((p) => [isSuccess(p.human), isSuccess(p.panel)] as const)),
  };
}
