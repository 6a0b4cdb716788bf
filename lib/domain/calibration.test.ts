// Prompt versions against the humans, worked by hand on a small case.
import { describe, expect, it } from "vitest";
import { calibration, type VersionAnswer } from "./calibration";

describe("calibration", () => {
  // Humans: t1 SUCCESSFUL, t2 NOT_ATTEMPTED, t3 ATTEMPTED, t4 NOT_ATTEMPTED.
  const labels = [
    { trajectoryId: 1, human: "SUCCESSFUL" as const },
    { trajectoryId: 2, human: "NOT_ATTEMPTED" as const },
    { trajectoryId: 3, human: "ATTEMPTED" as const },
    { trajectoryId: 4, human: "NOT_ATTEMPTED" as const },
  ];
  const a = (judge: string, promptVersion: number, trajectoryId: number, overall: VersionAnswer["overall"]) => ({
    judge,
    promptVersion,
    trajectoryId,
    overall,
  });
  const answers: VersionAnswer[] = [
    // Version 1: judge x calls everything NOT_ATTEMPTED; y gets t1 and t3 right, says ATTEMPTED on t2.
    a("x", 1, 1, "NOT_ATTEMPTED"),
    a("x", 1, 2, "NOT_ATTEMPTED"),
    a("x", 1, 3, "NOT_ATTEMPTED"),
    a("x", 1, 4, "NOT_ATTEMPTED"),
    a("y", 1, 1, "SUCCESSFUL"),
    a("y", 1, 2, "ATTEMPTED"),
    a("y", 1, 3, "ATTEMPTED"),
    // Version 2: x agrees with the humans everywhere.
    a("x", 2, 1, "SUCCESSFUL"),
    a("x", 2, 2, "NOT_ATTEMPTED"),
    a("x", 2, 3, "ATTEMPTED"),
    a("x", 2, 4, "NOT_ATTEMPTED"),
  ];
  const rows = calibration(labels, answers);

  it("each judge under each version, and the panel each version would form", () => {
    expect(rows.map((r) => [r.judge, r.promptVersion])).toEqual([
      ["x", 1],
      ["y", 1],
      [null, 1],
      ["x", 2],
      [null, 2],
    ]);
  });

  it("x under version 1: attempt agrees on t2 and t4 only (2 of 4, kappa 0); version 2 agrees on all", () => {
    const x1 = rows[0]!;
    // Attempt: human (T, F, T, F) against x (F, F, F, F): both negative 2, human only 2.
    expect(x1.attempt).toMatchObject({ n: 4, agreement: 50, both_negative: 2, human_only: 2, kappa: 0 });
    const x2 = rows[3]!;
    expect(x2.attempt).toMatchObject({ n: 4, agreement: 100, kappa: 1 });
    expect(x2.success).toMatchObject({ n: 4, agreement: 100, kappa: 1 });
    // What version 2 changed for x: t1 (N → S) and t3 (N → A).
    expect(x2.changed).toEqual([1, 3]);
  });

  it("the version 1 panel: the majority of x and y, ATTEMPTED where they split", () => {
    // t1: N, S → no majority → ATTEMPTED; t2: N, A → ATTEMPTED; t3: N, A → ATTEMPTED; t4: x alone, N.
    const p1 = rows[2]!;
    // Attempt: human (T, F, T, F) against panel (T, T, T, F): a=2, c=1, d=1 → 3 of 4.
    expect(p1.attempt).toMatchObject({ n: 4, agreement: 75, both_positive: 2, judges_only: 1, both_negative: 1 });
    // Success: human (T, F, F, F) against panel (F, F, F, F): 3 of 4, kappa 0.
    expect(p1.success).toMatchObject({ n: 4, agreement: 75, human_only: 1, kappa: 0 });
  });

  it("against the gold labels too, where there are some", () => {
    expect(rows.every((r) => r.gold === null)).toBe(true);
    // Gold: t1 SUCCESSFUL, t2 ATTEMPTED (the adjudicator overruled the human on t2).
    const gold = [
      { trajectoryId: 1, human: "SUCCESSFUL" as const },
      { trajectoryId: 2, human: "ATTEMPTED" as const },
    ];
    const withGold = calibration(labels, answers, gold);
    // x under version 2 said S on t1 and N on t2. Attempt: gold (T, T) against (T, F): both positive 1,
    // gold only 1, 1 of 2. Success: gold (T, F) against (T, F): 2 of 2.
    const x2 = withGold[3]!;
    expect(x2.gold!.attempt).toMatchObject({ n: 2, agreement: 50, both_positive: 1, human_only: 1 });
    expect(x2.gold!.success).toMatchObject({ n: 2, agreement: 100, both_positive: 1, both_negative: 1 });
    // Against the humans nothing moved.
    expect(x2.attempt).toEqual(rows[3]!.attempt);
    // The version 1 panel: ATTEMPTED on t1 and t2. Attempt 2 of 2; success: gold (T, F), panel (F, F): 1 of 2.
    expect(withGold[2]!.gold!.attempt).toMatchObject({ n: 2, agreement: 100 });
    expect(withGold[2]!.gold!.success).toMatchObject({ n: 2, agreement: 50, human_only: 1 });
  });
});
