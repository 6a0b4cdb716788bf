// The shared intervals' shortcuts (a base's totals, one pass for many scores, counters shared) change no
// figure: each monitor's interval equals its own alone and the one worked out pair by pair by the definition.
import { describe, expect, it } from "vitest";
import { type IndexedPoints, sharedIntervals } from "./monitor-bootstrap";
import { quantile } from "./paired";
import { prng, textSeed } from "./random";

const U = 60;
const random = prng(7);
const positive = Array.from({ length: U }, () => random() < 0.3);
const every = Array.from({ length: U }, (_, i) => i);
const monitor = (index: number[], score: (i: number) => number): IndexedPoints => ({
  index,
  score: index.map(score),
  positive: index.map((i) => positive[i]!),
});

/** By the definition: each resample's weights, every positive–negative pair weighed, ties one half. */
function bruteForce(m: IndexedPoints, seed: string, resamples: number): [number, number] {
  const draw = prng(textSeed(seed));
  const draws: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const w = new Array<number>(U).fill(0);
    for (let i = 0; i < U; i++) w[Math.floor(draw() * U)]! += 1;
    let wins = 0;
    let pairs = 0;
    for (let a = 0; a < m.index.length; a++)
      for (let b = 0; b < m.index.length; b++) {
        if (!m.positive[a] || m.positive[b]) continue;
        const weight = w[m.index[a]!]! * w[m.index[b]!]!;
        pairs += weight;
        wins += weight * (m.score[a]! > m.score[b]! ? 1 : m.score[a] === m.score[b] ? 0.5 : 0);
      }
    if (pairs) draws.push(wins / pairs);
  }
  draws.sort((a, b) => a - b);
  return [quantile(draws, 0.025), quantile(draws, 0.975)];
}

describe("intervals drawn for many monitors at once", () => {
  const confident = monitor(every, () => Math.round(random() * 10) / 10);
  const verdicts = monitor(every, (i) => (positive[i] ? +(i % 5 !== 0) : +(i % 7 === 0)));
  const panel = monitor(every, (i) => (i % 4) / 3);
  const silent = monitor(every, () => 0);
  const half = every.filter((i) => i % 2 === 0);
  const onHalf = monitor(half, (i) => +(i % 3 === 0));
  const monitors = [confident, verdicts, panel, silent, { ...silent }, onHalf];
  const bases = [
    { index: every, positive },
    { index: half, positive: half.map((i) => positive[i]!) },
  ];
  const based = monitors.map((m, k) => ({ ...m, base: k === 5 ? 1 : 0 }));

  it("gives each monitor the interval it gets alone", () => {
    const together = sharedIntervals(U, based, "seed", 200, bases);
    const alone = monitors.map((m) => sharedIntervals(U, [m], "seed", 200)[0]);
    expect(together).toEqual(alone);
    monitors.forEach((m, k) => {
      const [low, high] = bruteForce(m, "seed", 200);
      expect(together[k]![0]).toBeCloseTo(low, 12);
      expect(together[k]![1]).toBeCloseTo(high, 12);
    });
  });

  it("ranks nothing with one score: every resample's AUROC is one half", () => {
    expect(sharedIntervals(U, [based[3]!], "seed", 50, bases)[0]).toEqual([0.5, 0.5]);
  });

  it("has no interval where the points never hold both classes", () => {
    const negatives = every.filter((i) => !positive[i]);
    expect(sharedIntervals(U, [monitor(negatives, (i) => i / U)], "seed", 50)[0]).toBeNull();
  });
});
