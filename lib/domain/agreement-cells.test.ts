import { describe, expect, it } from "vitest";
import { CELLS, cellLabels, type Group, groupText, parseGroup } from "./agreement-cells";
import { agreementReport, goldAgreement, type LabelPoint } from "./agreement-report";

const point = (p: Partial<LabelPoint> & Pick<LabelPoint, "trajectoryId" | "human" | "panel">): LabelPoint => ({
  annotator: "alice",
  judges: {},
  benchmark: "b",
  model: "m",
  network: true,
  prompt: "vanilla",
  ...p,
});

describe("cellLabels", () => {
  // t1: alice and bob disagree (successful / not attempted), the panel says successful.
  // t2: alice attempted, the panel not attempted; t3 unjudged (counts nowhere).
  const labels = [
    point({ trajectoryId: 1, human: "SUCCESSFUL", panel: "SUCCESSFUL", judges: { j: "ATTEMPTED" } }),
    point({
      trajectoryId: 1,
      annotator: "bob",
      human: "NOT_ATTEMPTED",
      panel: "SUCCESSFUL",
      judges: { j: "ATTEMPTED" },
    }),
    point({ trajectoryId: 2, human: "ATTEMPTED", panel: "NOT_ATTEMPTED", network: false, model: "m2" }),
    point({ trajectoryId: 3, human: "ATTEMPTED", panel: null }),
  ];

  it("puts each label in one cell: a trajectory whose annotators disagree is in two, once each", () => {
    const both = cellLabels(labels, { kind: "all" }, "attempt", "both_positive");
    const judgesOnly = cellLabels(labels, { kind: "all" }, "attempt", "judges_only");
    expect(both.map((p) => [p.trajectoryId, p.annotator])).toEqual([[1, "alice"]]);
    expect(judgesOnly.map((p) => [p.trajectoryId, p.annotator])).toEqual([[1, "bob"]]);
    expect(cellLabels(labels, { kind: "all" }, "attempt", "human_only").map((p) => p.trajectoryId)).toEqual([2]);
    // Judge j voted on t1 only: alice yes/yes, bob no/yes on attempt.
    expect(cellLabels(labels, { kind: "judge", name: "j" }, "attempt", "judges_only").map((p) => p.annotator)).toEqual([
      "bob",
    ]);
  });

  it("lists exactly the count of every cell of every group of the report", () => {
    const r = agreementReport(labels);
    const groups: Array<[Group, (typeof r)["overall"]]> = [
      [{ kind: "all" }, r.overall],
      ...r.by_condition.map((c): [Group, typeof c] => [{ kind: "condition", network: c.network, prompt: c.prompt }, c]),
      ...r.by_model.map((m): [Group, typeof m] => [{ kind: "model", name: m.model }, m]),
      ...r.by_benchmark.map((b): [Group, typeof b] => [{ kind: "benchmark", name: b.benchmark }, b]),
      ...r.judges.map((j): [Group, typeof j] => [{ kind: "judge", name: j.judge }, j]),
    ];
    expect(groups).toHaveLength(1 + 2 + 2 + 1 + 1);
    for (const [group, a] of groups)
      for (const q of ["attempt", "success"] as const)
        for (const cell of CELLS)
          expect([groupText(group), q, cell, cellLabels(labels, group, q, cell).length]).toEqual([
            groupText(group),
            q,
            cell,
            a[q][cell],
          ]);
  });

  it("an annotator's labels against the gold labels: each cell lists the annotator's count", () => {
    // Gold: t1 not attempted, t2 attempted. alice (t1 S, t2 A): attempt both yes on t2, rater only on t1.
    const withGold = labels.map((p) => ({
      ...p,
      gold: p.trajectoryId === 1 ? ("NOT_ATTEMPTED" as const) : p.trajectoryId === 2 ? ("ATTEMPTED" as const) : null,
    }));
    const gold = withGold.flatMap((p) =>
      p.gold && p.annotator === "alice"
        ? [
            {
              trajectoryId: p.trajectoryId,
              gold: p.gold,
              panel: p.panel,
              judges: p.judges,
              network: p.network,
              prompt: p.prompt,
            },
          ]
        : [],
    );
    const a = goldAgreement(gold, withGold)!.annotators.find((x) => x.annotator === "alice")!;
    expect(a.attempt).toMatchObject({ n: 2, both_positive: 1, judges_only: 1 });
    for (const q of ["attempt", "success"] as const)
      for (const cell of CELLS)
        expect([q, cell, cellLabels(withGold, { kind: "gold", name: "alice" }, q, cell).length]).toEqual([
          q,
          cell,
          a[q][cell],
        ]);
    expect(
      cellLabels(withGold, { kind: "gold", name: "alice" }, "attempt", "judges_only").map((p) => p.trajectoryId),
    ).toEqual([1]);
  });

  it("reads groups from the URL, and refuses what it cannot read", () => {
    expect(parseGroup("condition:off:principled")).toEqual({ kind: "condition", network: false, prompt: "principled" });
    expect(parseGroup("judge:glm:5")).toEqual({ kind: "judge", name: "glm:5" });
    expect(parseGroup(undefined)).toEqual({ kind: "all" });
    for (const bad of ["condition:maybe:vanilla", "model:", "nonsense:x", "condition:on"])
      expect(parseGroup(bad)).toBeNull();
  });
});
