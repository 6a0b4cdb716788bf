import { describe, expect, it } from "vitest";
import { meanInterval, wilson } from "./intervals";

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
    expect(meanInterval([0, 1, 1, 0])).toEqual({ low: 0, high: 100 });
    // scores 0.5, 0.5, 1, 1: mean 0.75, s² = (4 · 0.0625)/3 = 1/12, half = 1.959964 · 0.288675/2 = 0.282896
    const r = meanInterval([0.5, 0.5, 1, 1])!;
    expect(r.low).toBeCloseTo(46.7104, 3);
    expect(r.high).toBeCloseTo(100, 6);
  });
  it("needs two tasks", () => {
    expect(meanInterval([1])).toBeNull();
    expect(meanInterval([])).toBeNull();
  });
});
