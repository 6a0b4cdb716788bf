import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assignAnnotators, type Candidate, drawSample, stratumOf } from "./sampling";

const candidates = (perStratum: Record<string, number>): Candidate[] => {
  let id = 1;
  return Object.entries(perStratum).flatMap(([stratum, n]) => Array.from({ length: n }, () => ({ id: id++, stratum })));
};

describe("drawSample", () => {
  const pool = candidates({ "b|m1|net|vanilla": 10, "b|m1|net|principled": 10, "b|m2|nonet|vanilla": 2 });

  it("takes up to the size from each stratum, all of a smaller one", () => {
    const s = drawSample(pool, 3, "seed-1");
    const count = (st: string) => s.filter((x) => x.stratum === st).length;
    expect([count("b|m1|net|vanilla"), count("b|m1|net|principled"), count("b|m2|nonet|vanilla")]).toEqual([3, 3, 2]);
    expect(new Set(s.map((x) => x.id)).size).toBe(s.length);
    expect(s.map((x) => x.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("interleaves strata in its order", () => {
    const s = drawSample(pool, 2, "seed-1");
    expect(s.slice(0, 3).map((x) => x.stratum)).toEqual([
      "b|m1|net|principled",
      "b|m1|net|vanilla",
      "b|m2|nonet|vanilla",
    ]);
  });

  it("repeats exactly from the same seed, whatever the candidates' order; another seed draws differently", () => {
    const a = drawSample(pool, 3, "seed-1");
    expect(drawSample([...pool].reverse(), 3, "seed-1")).toEqual(a);
    expect(drawSample(pool, 3, "seed-2").map((x) => x.id)).not.toEqual(a.map((x) => x.id));
  });

  it("sizes per stratum; changing one leaves the others' draws alone", () => {
    const a = drawSample(pool, { "b|m1|net|vanilla": 2, "b|m1|net|principled": 4 }, "s");
    const b = drawSample(pool, { "b|m1|net|vanilla": 5, "b|m1|net|principled": 4 }, "s");
    const ids = (x: typeof a, st: string) =>
      x
        .filter((i) => i.stratum === st)
        .map((i) => i.id)
        .sort();
    expect(ids(a, "b|m1|net|principled")).toEqual(ids(b, "b|m1|net|principled"));
    expect(ids(a, "b|m2|nonet|vanilla")).toEqual([]);
  });

  it("stratum keys name the condition", () => {
    expect(stratumOf({ benchmark: "swe", model: "m", network: false, prompt: "vanilla" })).toBe("swe|m|nonet|vanilla");
  });
});

describe("assignAnnotators", () => {
  const items = drawSample(candidates({ a: 7 }), 7, "x");

  it("gives each item `overlap` different annotators and spreads the load evenly", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 3 }),
        fc.string(),
        (people, extra, seed) => {
          const annotators = Array.from({ length: people + extra }, (_, i) => `ann${i}`);
          const overlap = Math.min(people, annotators.length);
          const a = assignAnnotators(items, annotators, overlap, seed);
          const loads = new Map<string, number>();
          for (const who of a.values()) {
            if (new Set(who).size !== overlap) return false;
            for (const w of who) loads.set(w, (loads.get(w) ?? 0) + 1);
          }
          const counts = annotators.map((n) => loads.get(n) ?? 0);
          return Math.max(...counts) - Math.min(...counts) <= 1;
        },
      ),
    );
  });

  it("refuses an overlap larger than the team", () => {
    expect(() => assignAnnotators(items, ["alice"], 2, "s")).toThrow(RangeError);
  });
});
