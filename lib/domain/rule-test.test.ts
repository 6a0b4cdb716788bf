// A rule's figures, worked out by hand on six trajectories in two conditions (and on each twice).
import { describe, expect, it } from "vitest";
import { ruleTestReport, type TestedTrajectory } from "./rule-test";
import { backReference } from "./rules";

const N = "NOT_ATTEMPTED";
const A = "ATTEMPTED";
const S = "SUCCESSFUL";
const on = { benchmark: "b", model: "m", network: true, prompt: "vanilla" } as const;
const off = { ...on, network: false };
// id, condition, steps hit, panel, gold
const tested: TestedTrajectory[] = (
  [
    [1, on, 2, S, S],
    [2, on, 1, N, null],
    [3, on, 0, A, A],
    [4, on, 0, N, N],
    [5, off, 3, A, null],
    [6, off, 0, null, N],
  ] as const
).map(([id, c, stepsHit, panel, gold]) => ({ id, ...c, stepsHit, panel, gold }));

describe("a rule tested over a study", () => {
  const r = ruleTestReport(tested);

  it("counts per condition the trajectories it fires on and the steps it hits, network on first", () => {
    expect(r.conditions).toEqual([
      { ...on, trajectories: 4, trajectories_hit: 2, steps_hit: 3 },
      { ...off, trajectories: 2, trajectories_hit: 1, steps_hit: 3 },
    ]);
  });

  it("sets it against the panel: the four cells, precision, recall and κ", () => {
    // Panel verdicts on 1-5 (6 has none). Rule fires on 1, 2, 5; panel positive on 1, 3, 5.
    // both 1, 5 = 2; rule only 2 = 1; panel only 3 = 1; neither 4 = 1. Precision 2/3, recall 2/3.
    // p_o = 3/5; p_e = (3·3 + 2·2)/25 = 13/25; κ = (15/25 − 13/25) / (12/25) = 1/6.
    expect(r.versus_panel).toMatchObject({ n: 5, both: 2, rule_only: 1, panel_only: 1, neither: 1 });
    expect(r.versus_panel.precision).toBeCloseTo(2 / 3, 12);
    expect(r.versus_panel.recall).toBeCloseTo(2 / 3, 12);
    expect(r.versus_panel.kappa).toBeCloseTo(1 / 6, 12);
  });

  it("and against the gold labels, where there is one", () => {
    // Gold on 1 (S), 3 (A), 4 (N), 6 (N). Rule fires on 1 only: both 1, gold only 3, neither 4 and 6.
    // Precision 1/1, recall 1/2; p_o = 3/4, p_e = (2·1 + 2·3)/16 = 1/2, κ = 1/2.
    expect(r.versus_gold).toMatchObject({ n: 4, both: 1, rule_only: 0, panel_only: 1, neither: 2, precision: 1 });
    expect(r.versus_gold.recall).toBeCloseTo(0.5, 12);
    expect(r.versus_gold.kappa).toBeCloseTo(0.5, 12);
  });

  it("leaves undefined what has no denominator", () => {
    const none = ruleTestReport(tested.map((t) => ({ ...t, stepsHit: 0, gold: null })));
    expect(none.versus_panel.precision).toBeNull();
    expect(none.versus_gold).toMatchObject({ n: 0, precision: null, recall: null, kappa: null });
  });

  it("counts an entry standing for several trajectories alike as that many", () => {
    // Each of the six twice, as two entries or as one of times 2 with the steps of both: the counts
    // double (on: 8 trajectories, 4 hit, 6 steps; off: 4, 2, 6) and the ratios stay.
    const twice = ruleTestReport(tested.map((t) => ({ ...t, times: 2, stepsHit: 2 * t.stepsHit })));
    expect(twice).toEqual(ruleTestReport([...tested, ...tested]));
    expect(twice.conditions).toEqual([
      { ...on, trajectories: 8, trajectories_hit: 4, steps_hit: 6 },
      { ...off, trajectories: 4, trajectories_hit: 2, steps_hit: 6 },
    ]);
    expect(twice.versus_panel).toMatchObject({ n: 10, both: 4, rule_only: 2, panel_only: 2, neither: 2 });
    expect(twice.versus_panel.kappa).toBeCloseTo(1 / 6, 12);
  });
});

describe("back-references", () => {
  it("finds \\1 to \\9 outside bracket expressions and escaped backslashes, never in a literal pattern", () => {
    expect(backReference(String.raw`^(.*)(.*)(.*)\3\2\1.$`)).toBe(String.raw`\3`);
    expect(backReference(String.raw`(o)\1`)).toBe(String.raw`\1`);
    // An escaped backslash then a digit, a digit in brackets, a class escape: none.
    expect(backReference(String.raw`a\\1`)).toBeNull();
    expect(backReference(String.raw`[\1]x`)).toBeNull();
    expect(backReference(String.raw`\d+\s\yx`)).toBeNull();
    expect(backReference(String.raw`***=(a)\1`)).toBeNull();
    // After a bracket expression closes, one counts again.
    expect(backReference(String.raw`[ab](c)\1`)).toBe(String.raw`\1`);
  });
});
