import { describe, expect, it } from "vitest";
import {
  agreementFromCounts,
  agreementReport,
  countsOf,
  type GoldPoint,
  goldAgreement,
  type LabelPoint,
} from "./agreement-report";

const point = (p: Partial<LabelPoint> & Pick<LabelPoint, "trajectoryId" | "human" | "panel">): LabelPoint => ({
  annotator: "alice",
  judges: {},
  benchmark: "b",
  model: "m",
  network: true,
  prompt: "vanilla",
  ...p,
});

describe("agreementReport", () => {
  const labels: LabelPoint[] = [
    // network on, vanilla
    point({ trajectoryId: 1, human: "SUCCESSFUL", panel: "SUCCESSFUL", judges: { j1: "SUCCESSFUL", j2: "ATTEMPTED" } }),
    point({
      trajectoryId: 2,
      human: "ATTEMPTED",
      panel: "NOT_ATTEMPTED",
      judges: { j1: "NOT_ATTEMPTED", j2: "ATTEMPTED" },
    }),
    // network off, principled, another model
    point({
      trajectoryId: 3,
      human: "NOT_ATTEMPTED",
      panel: "NOT_ATTEMPTED",
      network: false,
      prompt: "principled",
      model: "m2",
      judges: { j1: "NOT_ATTEMPTED" },
    }),
    point({
      trajectoryId: 4,
      human: "NOT_ATTEMPTED",
      panel: "ATTEMPTED",
      network: false,
      prompt: "principled",
      model: "m2",
      judges: { j1: "ATTEMPTED" },
    }),
    // a second annotator on trajectory 1 and 3 (inter-annotator units)
    point({
      trajectoryId: 1,
      annotator: "bob",
      human: "ATTEMPTED",
      panel: "SUCCESSFUL",
      judges: { j1: "SUCCESSFUL", j2: "ATTEMPTED" },
    }),
    point({
      trajectoryId: 3,
      annotator: "bob",
      human: "NOT_ATTEMPTED",
      panel: "NOT_ATTEMPTED",
      network: false,
      prompt: "principled",
      model: "m2",
      judges: { j1: "NOT_ATTEMPTED" },
    }),
    // unjudged: does not count for human–judge agreement
    point({ trajectoryId: 5, human: "SUCCESSFUL", panel: null }),
  ];
  const r = agreementReport(labels);

  it("overall: only labels on judged trajectories, each label once", () => {
    // attempt (human, panel): (y,y) (y,n) (n,n) (n,y) (y,y) (n,n): a=2, b=1, c=1, d=2
    expect(r.overall.attempt).toMatchObject({
      n: 6,
      both_positive: 2,
      human_only: 1,
      judges_only: 1,
      both_negative: 2,
    });
    expect(r.overall.attempt.agreement).toBeCloseTo((4 / 6) * 100, 10);
    // p_e = (3·3 + 3·3)/36 = 0.5 -> κ = (2/3 − 1/2)/(1/2) = 1/3
    expect(r.overall.attempt.kappa).toBeCloseTo(1 / 3, 10);
    // success: (y,y) (n,n) (n,n) (n,n) (n,y) (n,n): a=1, b=0, c=1, d=4
    expect(r.overall.success).toMatchObject({
      n: 6,
      both_positive: 1,
      human_only: 0,
      judges_only: 1,
      both_negative: 4,
    });
  });

  it("by condition, model and benchmark", () => {
    expect(r.by_condition.map((c) => [c.network, c.prompt, c.attempt.n])).toEqual([
      [true, "vanilla", 3],
      [false, "principled", 3],
    ]);
    expect(r.by_model.map((m) => [m.model, m.attempt.n, m.attempt.agreement])).toEqual([
      ["m", 3, (2 / 3) * 100],
      ["m2", 3, (2 / 3) * 100],
    ]);
    expect(r.by_benchmark).toHaveLength(1);
  });

  it("each judge against the humans, on the labels where that judge voted", () => {
    const j2 = r.judges.find((j) => j.judge === "j2")!;
    // j2 voted on trajectories 1 (twice labelled) and 2: attempt pairs (y,y) (y,y) (y,y): all agree
    expect(j2.attempt).toMatchObject({ n: 3, both_positive: 3, agreement: 100, kappa: null });
    expect(r.judges.map((j) => j.judge)).toEqual(["j1", "j2"]);
  });

  it("inter-annotator alpha on trajectories with several labels", () => {
    // Units: {SUCCESSFUL, ATTEMPTED} and {NOT_ATTEMPTED, NOT_ATTEMPTED}:
    // o_SA = o_AS = 1, o_NN = 2; n_S = n_A = 1, n_N = 2, n = 4;
    // α = 1 − 3·2 / (Σ_{c≠k} n_c n_k = 2·(1·1 + 1·2 + 1·2) = 10) = 0.4
    expect(r.inter_annotator).toEqual({ alpha: expect.closeTo(0.4, 10), units: 2, labels: 4 });
  });

  it("sums the labels as the database does, and the report from those counts is the same", () => {
    const counts = countsOf(labels);
    // Judged labels by condition and verdicts: the six judged labels, none alike in all of those.
    expect(counts.labels.reduce((n, l) => n + l.count, 0)).toBe(6);
    // j1 voted on every judged trajectory; its (human N, verdict N) pairs are alice's and bob's on 3.
    // j2 voted on 1 (labelled by alice and bob) and 2 (alice): three labels beside it.
    expect(
      counts.judges.find((j) => j.judge === "j1" && j.human === "NOT_ATTEMPTED" && j.verdict === "NOT_ATTEMPTED"),
    ).toMatchObject({ count: 2 });
    expect(counts.judges.filter((j) => j.judge === "j2").reduce((n, j) => n + j.count, 0)).toBe(3);
    // Units with two labels or more: trajectory 1 (one S, one A) and 3 (two N).
    expect(counts.units).toEqual(
      expect.arrayContaining([
        { not_attempted: 0, attempted: 1, successful: 1, count: 1 },
        { not_attempted: 2, attempted: 0, successful: 0, count: 1 },
      ]),
    );
    expect(counts.units).toHaveLength(2);
    // Summed rows in another order give the same report.
    const shuffled = { ...counts, labels: [...counts.labels].reverse(), judges: [...counts.judges].reverse() };
    expect(agreementFromCounts(shuffled, null, false)).toEqual(r);
  });

  it("no labels: every figure undefined", () => {
    const empty = agreementReport([]);
    expect(empty.overall.attempt).toMatchObject({ n: 0, agreement: null, kappa: null });
    expect(empty.inter_annotator).toEqual({ alpha: null, units: 0, labels: 0 });
  });
});

describe("goldAgreement", () => {
  const on = { network: true, prompt: "vanilla" as const };
  const off = { network: false, prompt: "vanilla" as const };
  const gold: GoldPoint[] = [
    {
      ...on,
      trajectoryId: 1,
      gold: "SUCCESSFUL",
      panel: "SUCCESSFUL",
      judges: { a: "SUCCESSFUL", b: "NOT_ATTEMPTED" },
    },
    { ...off, trajectoryId: 2, gold: "NOT_ATTEMPTED", panel: "ATTEMPTED", judges: { a: "ATTEMPTED" } },
    // Unjudged: counts for annotators only.
    { ...on, trajectoryId: 3, gold: "ATTEMPTED", panel: null, judges: {} },
  ];
  const labels: LabelPoint[] = [
    point({ trajectoryId: 1, human: "SUCCESSFUL", panel: "SUCCESSFUL" }),
    point({ trajectoryId: 2, human: "NOT_ATTEMPTED", panel: "ATTEMPTED" }),
    point({ trajectoryId: 3, annotator: "bob", human: "NOT_ATTEMPTED", panel: null }),
    // No gold label: counts for no one.
    point({ trajectoryId: 4, annotator: "bob", human: "SUCCESSFUL", panel: "SUCCESSFUL" }),
  ];

  it("puts each rater against the gold label, which plays the human's part", () => {
    const g = goldAgreement(gold, labels)!;
    // Panel on 1 and 2. Attempt: 1 both yes, 2 gold no / panel yes (judges_only): 1 of 2.
    // Success: 1 both yes, 2 both no: 2 of 2.
    expect(g.panel.attempt).toMatchObject({ n: 2, agreement: 50, both_positive: 1, judges_only: 1, human_only: 0 });
    expect(g.panel.success).toMatchObject({ n: 2, agreement: 100, both_positive: 1, both_negative: 1 });
    // By condition: network on holds 1 (both yes), network off holds 2 (gold no, panel yes).
    expect(
      g.by_condition.map((c) => [c.network, c.prompt, c.attempt.n, c.attempt.both_positive, c.attempt.judges_only]),
    ).toEqual([
      [true, "vanilla", 1, 1, 0],
      [false, "vanilla", 1, 0, 1],
    ]);
    // Judge a said what the panel said; judge b only on 1: gold successful, b not attempted.
    expect(g.judges.map((j) => j.judge)).toEqual(["a", "b"]);
    expect(g.judges[0]!.attempt).toEqual(g.panel.attempt);
    expect(g.judges[1]!.attempt).toMatchObject({ n: 1, agreement: 0, human_only: 1 });
    expect(g.judges[1]!.success).toMatchObject({ n: 1, agreement: 0, human_only: 1 });
    // alice on 1 (both successful) and 2 (both not attempted): κ = (1 − 0.5) / (1 − 0.5) = 1 on attempt.
    expect(g.annotators.map((a) => a.annotator)).toEqual(["alice", "bob"]);
    expect(g.annotators[0]!.attempt).toMatchObject({ n: 2, agreement: 100, both_positive: 1, both_negative: 1 });
    expect(g.annotators[0]!.attempt.kappa).toBeCloseTo(1, 12);
    // bob on 3 only: gold attempted, bob not: attempt gold only; success both no.
    expect(g.annotators[1]!.attempt).toMatchObject({ n: 1, human_only: 1 });
    expect(g.annotators[1]!.success).toMatchObject({ n: 1, both_negative: 1 });
  });

  it("is null without gold labels, and the report carries it", () => {
    expect(goldAgreement([], labels)).toBeNull();
    expect(agreementReport(labels).gold).toBeNull();
    expect(agreementReport(labels, gold).gold).toEqual(goldAgreement(gold, labels));
  });
});
