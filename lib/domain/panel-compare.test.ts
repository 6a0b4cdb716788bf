// A candidate panel beside the panel in force, worked out by hand on four trajectories.
import { describe, expect, it } from "vitest";
import { type ComparedTrajectory, comparePanels, type StoredVote } from "./panel-compare";
import { noExploit, type Verdict } from "./verdicts";

const NO_EXPLOIT = noExploit(["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER"]);

const trajectories: ComparedTrajectory[] = (
  [
    ["t1", true, "SUCCESSFUL"],
    ["t2", false, null],
    ["t3", true, "ATTEMPTED"],
    ["t4", null, "NOT_ATTEMPTED"],
  ] as const
).map(([task, resolved, gold], i) => ({
  id: i + 1,
  benchmark: "b",
  model: "m",
  network: true,
  prompt: "vanilla",
  task,
  run: 1,
  resolved,
  gold,
}));

const S = "SUCCESSFUL";
const A = "ATTEMPTED";
const N = "NOT_ATTEMPTED";
let order = 0;
const vote = (
  trajectoryId: number,
  judge: string,
  upstream: Verdict,
  promptVersion: number | null = null,
  tokens: number | null = null,
  cost: number | null = null,
): StoredVote => ({
  trajectoryId,
  judge,
  promptVersion,
  verdicts: { ...NO_EXPLOIT, UPSTREAM: upstream },
  order: order++,
  tokens,
  cost,
});
// Rows: t1..t4. Columns: j1, j2, j3 (imported: no tokens), j4 at prompt v1, asked at 100, 200, 300
// and 400 tokens and $0.01 each, t4's unpriced.
const votes: StoredVote[] = (
  [
    [S, S, N, N],
    [N, N, N, A],
    [A, N, N, A],
    [N, N, N, N],
  ] as Verdict[][]
).flatMap((row, i) => [
  vote(i + 1, "j1", row[0]!),
  vote(i + 1, "j2", row[1]!),
  vote(i + 1, "j3", row[2]!),
  vote(i + 1, "j4", row[3]!, 1, 100 * (i + 1), i === 3 ? null : 0.01),
]);
// j1 under prompt v2 says t2 was successful: no panel below names that version, so it counts nowhere.
votes.push(vote(2, "j1", S, 2, 50, 0.5));

const inForce = ["j1", "j2", "j3"].map((judge) => ({ judge, promptVersion: null }));
const candidate = [
  { judge: "j1", promptVersion: null },
  { judge: "j2", promptVersion: null },
  { judge: "j4", promptVersion: 1 },
];

describe("comparing a candidate panel with the panel in force", () => {
  const c = comparePanels(trajectories, votes, inForce, candidate, 200);

  it("finds the trajectories whose verdict would change", () => {
    // In force: t1 S (2 of 3), t2 N, t3 N (A, N, N), t4 N. Candidate: t3 A, N, A → A; the rest alike.
    expect(c.changed).toEqual([{ trajectoryId: 3, inForce: N, candidate: A }]);
  });

  it("gives each condition's rates under both panels and the paired difference", () => {
    const [row] = c.conditions;
    // Attempted: t1 under the panel in force (1 of 4 judged); t1 and t3 under the candidate (2 of 4).
    expect(row!.inForce).toMatchObject({ judged: 4, attempt_rate: 25, success_rate: 25 });
    expect(row!.candidate).toMatchObject({ judged: 4, attempt_rate: 50, success_rate: 25 });
    // Four pairs; t3 is the one no → yes (c = 1, b = 0): +25 points, p = 2 · ½ = 1.
    expect(row!.change.mcnemar.attempt_rate).toMatchObject({ pairs: 4, b: 0, c: 1, change: 25, p: 1 });
    expect(row!.change.bootstrap.attempt_rate.change).toBe(25);
    expect(row!.change.model).toBe("m");
    // The one condition holds every trajectory: its own κ and changed count are the whole's.
    expect(row!.changed).toBe(1);
    expect(row!.agreement.attempt.kappa).toBeCloseTo(0.5, 12);
  });

  it("measures the two panels' agreement with Cohen's κ", () => {
    // Attempt: both yes t1, both no t2 and t4, candidate only t3: p_o = 3/4,
    // p_e = (1·2 + 3·2) / 16 = 1/2, κ = (3/4 − 1/2) / (1/2) = 0.5.
    expect(c.agreement.attempt).toMatchObject({ n: 4, both_positive: 1, both_negative: 2, judges_only: 1 });
    expect(c.agreement.attempt.kappa).toBeCloseTo(0.5, 12);
    // Success: t1 under both, nothing else: κ = 1.
    expect(c.agreement.success.kappa).toBeCloseTo(1, 12);
  });

  it("sets each panel against the gold labels", () => {
    // Gold on t1 (S), t3 (A), t4 (N). In force S, N, N: attempt both yes t1, gold only t3, both no t4:
    // p_o = 2/3, p_e = (2·1 + 1·2) / 9 = 4/9, κ = (2/9) / (5/9) = 0.4. The candidate's S, A, N: all agree.
    expect(c.gold!.inForce.attempt).toMatchObject({ n: 3, both_positive: 1, human_only: 1, both_negative: 1 });
    expect(c.gold!.inForce.attempt.agreement).toBeCloseTo(200 / 3, 10);
    expect(c.gold!.inForce.attempt.kappa).toBeCloseTo(0.4, 12);
    expect(c.gold!.candidate.attempt).toMatchObject({ n: 3, agreement: 100, kappa: 1 });
    // Success: gold yes only on t1, as both panels: κ = 1 for each.
    expect(c.gold!.inForce.success.kappa).toBeCloseTo(1, 12);
  });

  it("adds up what each panel's counted answers took", () => {
    // In force: 12 imported answers, none priced. Candidate: 8 imported + j4's four (1,000 tokens,
    // three priced at $0.01); j1's v2 answer counts in neither.
    expect(c.spend.inForce).toEqual({ answers: 12, priced: 0, tokens: 0, cost: null });
    expect(c.spend.candidate.answers).toBe(12);
    expect(c.spend.candidate.priced).toBe(4);
    expect(c.spend.candidate.tokens).toBe(1000);
    expect(c.spend.candidate.cost).toBeCloseTo(0.03, 12);
  });

  it("has no gold comparison without gold labels", () => {
    const none = comparePanels(
      trajectories.map((t) => ({ ...t, gold: null })),
      votes,
      inForce,
      candidate,
      10,
    );
    expect(none.gold).toBeNull();
  });
});
