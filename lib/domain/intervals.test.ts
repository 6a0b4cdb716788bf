import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ascendingSum, type Counted, meanInterval, wilson } from "./intervals";

/** Each value once. */
const eachOnce = (values: readonly number[]): Counted => values.map((value) => ({ value, times: 1 }));

describe("ascendingSum", () => {
  // Its definition: every value sorted ascending, then added from zero in that order.
  const sortedSum = (v: number[]) => [...v].sort((a, b) => a - b).reduce((a, b) => a + b, 0);

  // The same values grouped: each run of equal values as one entry with its count.
  const grouped = (v: number[]) => {
    const runs: Array<{ value: number; times: number }> = [];
    for (const value of v)
      if (runs.length && Object.is(runs.at(-1)!.value, value)) runs.at(-1)!.times += 1;
      else runs.push({ value, times: 1 });
    return runs;
  };

  it("gives the bits of the sorted sum, whatever the order and however the values are grouped", () => {
    // Scores of tasks with up to 3 runs (k/3), pass@k's products, and a few others that round apart.
    const value = fc.constantFrom(0, -0, 1 / 3, 2 / 3, 1, 0.1, 0.2, 0.7, 1e-17, 5 / 7, 2 / 9);
    fc.assert(
      fc.property(fc.array(value, { maxLength: 400 }), (values) => {
        const sum = sortedSum(values);
        expect(Object.is(ascendingSum(eachOnce(values)), sum)).toBe(true);
        expect(Object.is(ascendingSum(eachOnce([...values].reverse())), sum)).toBe(true);
        expect(Object.is(ascendingSum(grouped(values)), sum)).toBe(true);
        expect(Object.is(ascendingSum(grouped([...values].sort())), sum)).toBe(true);
      }),
    );
  });

  it("adds a value as often as it occurs, as sorting would, not multiplied by its count", () => {
    // 0.1 added ten times is 0.9999999999999999; 10 × 0.1 would be 1.
    expect(ascendingSum([{ value: 0.1, times: 10 }])).toBe(0.9999999999999999);
    expect(ascendingSum([])).toBe(0);
  });
});

describe("wilson (95%)", () => {
  it.each<[number, number, number, number]>([
    // Textbook values (Newcombe 1998, Table I; Agresti & Coull 1998): 0/10 → 0–27.8%, 5/10 → 23.7–76.3%
    [0, 10, 0, 27.7533],
    [5, 10, 23.6593, 76.3407],
    [10, 10, 72.2467, 100],
    [3, 7, 15.822, 74.9542],
    [87, 100, 79.0196, 92.2428],
    [1, 1, 20.6549, 100],
  ])("%i of %i", (k, n, low, high) => {
    const r = wilson(k, n)!;
    expect(r.low).toBeCloseTo(low, 3);
    expect(r.high).toBeCloseTo(high, 3);
  });

  it("is undefined for an empty denominator", () => {
    expect(wilson(0, 0)).toBeNull();
  });
});

describe("meanInterval", () => {
  it("mean ± z·s/√T", () => {
    // scores 0, 1, 1, 0: mean 0.5, s² = (4 · 0.25)/3 = 1/3, half = 1.96 · √(1/3)/2 = 0.5658 → clipped to [0, 100]
    expect(meanInterval(eachOnce([0, 1, 1, 0]))).toEqual({ low: 0, high: 100 });
    // scores 0.5, 0.5, 1, 1: mean 0.75, s² = (4 · 0.0625)/3 = 1/12, half = 1.959964 · 0.288675/2 = 0.282896
    const r = meanInterval(eachOnce([0.5, 0.5, 1, 1]))!;
    expect(r.low).toBeCloseTo(46.7104, 3);
    expect(r.high).toBeCloseTo(100, 6);
    // The same scores counted: the same bits.
    expect(
      meanInterval([
        { value: 1, times: 2 },
        { value: 0.5, times: 2 },
      ]),
    ).toEqual(r);
  });
  it("needs two tasks", () => {
    expect(meanInterval(eachOnce([1]))).toBeNull();
    expect(meanInterval([{ value: 1, times: 1 }])).toBeNull();
    expect(meanInterval([])).toBeNull();
  });
});
