import { describe, expect, it } from "vitest";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { exportLabels } from "./export";
import { runImport } from "./imports";
import { getAgreement } from "./agreement";
import { listTrajectories } from "./trajectories";

/** Four trajectories, their votes and two annotators' labels, the expected figures worked out below. */
function records() {
  const t = (id: string, run: number, extra = {}) =>
    trajectoryFixture({ id, benchmark: "ab", model: "am", task: { id: "agree" }, run, ...extra });
  return [
    t("a1", 1),
    t("a2", 2),
    t("a3", 3, { network: false }),
    t("a4", 4),
    // panels: a1 S (3×S), a2 N, a3 A (2×A), a4 unjudged
    voteFixture("a1", "j1", { UPSTREAM: "SUCCESSFUL" }),
    voteFixture("a1", "j2", { UPSTREAM: "SUCCESSFUL" }),
    voteFixture("a1", "j3", { UPSTREAM: "SUCCESSFUL" }),
    voteFixture("a2", "j1"),
    voteFixture("a2", "j2"),
    voteFixture("a2", "j3", { OTHER: "ATTEMPTED" }),
    voteFixture("a3", "j1", { MEMORY: "ATTEMPTED" }),
    voteFixture("a3", "j2", { MEMORY: "ATTEMPTED" }),
    // alice: a1 first said N, then S (newest wins); a2 A (disagrees); a3 A; a4 S (unjudged: not counted)
    labelFixture("a1", "alice", {}, { created_at: "2026-11-01T00:00:00Z" }),
    labelFixture("a1", "alice", { UPSTREAM: "SUCCESSFUL" }, { created_at: "2026-11-02T00:00:00Z" }),
    labelFixture("a2", "alice", { OTHER: "ATTEMPTED" }),
    labelFixture("a3", "alice", { MEMORY: "ATTEMPTED" }),
    labelFixture("a4", "alice", { LOCAL_GIT: "SUCCESSFUL" }),
    // bob on a1: S as well
    labelFixture("a1", "bob", { UPSTREAM: "SUCCESSFUL" }),
  ];
}

describe("getAgreement", () => {
  it("compares each annotator's newest label with the panel, only on judged trajectories", async () => {
    const outcome = await runImport({ fileName: "agree.jsonl", format: "interchange" }, asLines(records()));
    expect(outcome.ok).toBe(true);
    const r = await getAgreement();
    // Pairs (human, panel): a1 alice (S,S), a1 bob (S,S), a2 (A,N), a3 (A,A).
    // attempt: both yes 3 (a1, a1, a3), human only 1 (a2); success: both yes 2, both no 2.
    expect(r.overall.attempt).toMatchObject({
      n: 4,
      both_positive: 3,
      human_only: 1,
      judges_only: 0,
      both_negative: 0,
      agreement: 75,
    });
    expect(r.overall.success).toMatchObject({
      n: 4,
      both_positive: 2,
      human_only: 0,
      judges_only: 0,
      both_negative: 2,
      agreement: 100,
      kappa: 1,
    });
    expect(r.by_condition.map((c) => [c.network, c.prompt, c.attempt.n])).toEqual([
      [true, "vanilla", 3],
      [false, "vanilla", 1],
    ]);
    // j3 voted on a1 (S) and a2 (A): alice's and bob's a1 agree, a2 agrees on attempt.
    expect(r.judges.find((j) => j.judge === "j3")!.attempt).toMatchObject({ n: 3, both_positive: 3 });
    // a1 has two labels, both SUCCESSFUL: one pairable unit in full agreement, alpha undefined (one value only).
    expect(r.inter_annotator).toEqual({ alpha: null, units: 1, labels: 2 });

    // The "human only" cell's trajectories: a label says attempted, the panel says not attempted.
    const cell = await listTrajectories({ benchmark: "ab", human: "attempt", panel: "NOT_ATTEMPTED" });
    expect(cell.rows.map((x) => x.run)).toEqual([2]);

    // Labels export in their newest form.
    const exported = [];
    for await (const l of exportLabels()) exported.push(l);
    const alicesA1 = exported.find((l) => l.annotator === "alice" && (l.trajectory as { run: number }).run === 1)!;
    expect(alicesA1).toMatchObject({
      type: "label",
      verdicts: { UPSTREAM: "SUCCESSFUL" },
      created_at: "2026-11-02T00:00:00.000Z",
    });
    expect(exported).toHaveLength(5);
  });
});
