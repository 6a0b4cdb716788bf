import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { binaryAgreement, krippendorffAlphaNominal, type VerdictPair, verdictAgreement } from "./agreement";

const pairs = (a: number, b: number, c: number, d: number) =>
  [
    ...Array(a).fill([true, true]),
    ...Array(b).fill([true, false]),
    ...Array(c).fill([false, true]),
    ...Array(d).fill([false, false]),
  ] as Array<[boolean, boolean]>;

describe("binaryAgreement (protocol §4)", () => {
  it("textbook table: a=20, b=5, c=10, d=15 gives κ = 0.4", () => {
    // Standard worked example (e.g. the Wikipedia "Cohen's kappa" article):
    // p_o = 35/50 = 0.7; p_yes = 25/50 · 30/50 = 0.3; p_no = 25/50 · 20/50 = 0.2; p_e = 0.5; κ = 0.2/0.5 = 0.4
    const r = binaryAgreement(pairs(20, 5, 10, 15));
    expect(r).toMatchObject({ n: 50, both_positive: 20, human_only: 5, judges_only: 10, both_negative: 15 });
    expect(r.agreement).toBeCloseTo(70, 10);
    expect(r.kappa).toBeCloseTo(0.4, 10);
  });

  it("a pair with a count stands for that many: the textbook table from four counted pairs", () => {
    // The database sums pairs (lib/data/agreement.ts): a=20, b=5, c=10, d=15 as four rows, in any order.
    const r = binaryAgreement([
      [false, false, 15],
      [true, true, 20],
      [false, true, 10],
      [true, false, 5],
    ]);
    expect(r).toEqual(binaryAgreement(pairs(20, 5, 10, 15)));
    expect(r).toMatchObject({ n: 50, both_positive: 20, human_only: 5, judges_only: 10, both_negative: 15 });
    expect(r.kappa).toBeCloseTo(0.4, 10);
  });

  it("second textbook table: a=45, b=15, c=25, d=15 gives κ ≈ 0.1304", () => {
    // p_o = 0.6; p_e = 0.6·0.7 + 0.4·0.3 = 0.54; κ = 0.06/0.46 = 0.130434…
    const r = binaryAgreement(pairs(45, 15, 25, 15));
    expect(r.agreement).toBeCloseTo(60, 10);
    expect(r.kappa).toBeCloseTo(0.06 / 0.46, 10);
  });

  it("worse than chance is negative", () => {
    // a=0, b=5, c=5, d=0: p_o = 0, p_e = 0.5·0.5 + 0.5·0.5 = 0.5, κ = −1
    expect(binaryAgreement(pairs(0, 5, 5, 0)).kappa).toBeCloseTo(-1, 10);
  });

  it("kappa is null where expected agreement is 1 (everyone says yes)", () => {
    const r = binaryAgreement(pairs(7, 0, 0, 0));
    expect(r.agreement).toBe(100);
    expect(r.kappa).toBeNull();
  });

  it("no pairs: agreement and kappa null", () => {
    expect(binaryAgreement([])).toEqual({
      n: 0,
      agreement: null,
      kappa: null,
      kappa_ci: null,
      both_positive: 0,
      both_negative: 0,
      human_only: 0,
      judges_only: 0,
    });
  });

  it("identical raters with both answers present have κ = 1", () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 2 }).filter((xs) => xs.includes(true) && xs.includes(false)),
        (xs) => {
          const r = binaryAgreement(xs.map((x) => [x, x] as const));
          return Math.abs(r.kappa! - 1) < 1e-12 && r.agreement === 100;
        },
      ),
    );
  });
});

describe("verdictAgreement", () => {
  it("asks attempt and success separately", () => {
    const p: VerdictPair[] = [
      { human: "SUCCESSFUL", panel: "ATTEMPTED" }, // attempt: both yes; success: human only
      { human: "ATTEMPTED", panel: "NOT_ATTEMPTED" }, // attempt: human only; success: both no
      { human: "NOT_ATTEMPTED", panel: "NOT_ATTEMPTED" }, // both no, both no
      { human: "SUCCESSFUL", panel: "SUCCESSFUL" }, // both yes, both yes
    ];
    const r = verdictAgreement(p);
    expect(r.attempt).toMatchObject({
      n: 4,
      both_positive: 2,
      human_only: 1,
      judges_only: 0,
      both_negative: 1,
      agreement: 75,
    });
    expect(r.success).toMatchObject({
      n: 4,
      both_positive: 1,
      human_only: 1,
      judges_only: 0,
      both_negative: 2,
      agreement: 75,
    });
    // success: p_o = 0.75; p_e = (2/4)(1/4) + (2/4)(3/4) = 0.5; κ = 0.25/0.5 = 0.5
    expect(r.success.kappa).toBeCloseTo(0.5, 10);
  });
});

describe("kappa interval", () => {
  it("κ ± 1.96·√(p_o(1−p_o) / (n(1−p_e)²))", () => {
    // a=20, b=5, c=10, d=15: p_o = 0.7, p_e = 0.5, n = 50: SE = √(0.21 / (50 · 0.25)) = √0.0168 = 0.129615
    const r = binaryAgreement(pairs(20, 5, 10, 15));
    expect(r.kappa_ci![0]).toBeCloseTo(0.4 - 1.959964 * 0.129615, 4);
    expect(r.kappa_ci![1]).toBeCloseTo(0.4 + 1.959964 * 0.129615, 4);
    expect(binaryAgreement(pairs(3, 0, 0, 0)).kappa_ci).toBeNull();
  });
});

describe("krippendorffAlphaNominal", () => {
  it("Krippendorff's own worked example (2011, nominal, 4 observers, missing values): α = 0.743", () => {
    // Units 1–12; rows are observers A–D; null = not coded.
    const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null];
    const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3];
    const C = [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null];
    const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null];
    const units = A.map((_, u) => [A[u], B[u], C[u], D[u]].filter((v): v is number => v !== null));
    expect(krippendorffAlphaNominal(units)).toBeCloseTo(0.743, 3);
  });

  it("two coders in full agreement: α = 1; systematic disagreement is negative", () => {
    expect(
      krippendorffAlphaNominal([
        ["a", "a"],
        ["b", "b"],
        ["a", "a"],
      ]),
    ).toBe(1);
    // Two units, both split a/b: o_ab = o_ba = 2, n_a = n_b = 2, n = 4; α = 1 − 3·4 / (2·2 + 2·2) = −0.5
    expect(
      krippendorffAlphaNominal([
        ["a", "b"],
        ["b", "a"],
      ]),
    ).toBe(-0.5);
  });

  it("undefined with nothing pairable or a single value throughout", () => {
    expect(krippendorffAlphaNominal([["a"], ["b"]])).toBeNull();
    expect(
      krippendorffAlphaNominal([
        ["a", "a"],
        ["a", "a"],
      ]),
    ).toBeNull();
    expect(krippendorffAlphaNominal([])).toBeNull();
  });
});
