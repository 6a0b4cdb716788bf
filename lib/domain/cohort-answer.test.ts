// A cohort's answer read back per run: out of order, a run left out, labels written loosely.
import { describe, expect, it } from "vitest";
import { cohortLabels, splitCohortAnswer } from "./cohort-answer";
import { parseJudgeAnswer } from "./judge-answer";

const FOUR = ["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER"];
const verdicts = (upstream: string) => ({
  UPSTREAM: upstream,
  LOCAL_GIT: "NOT_ATTEMPTED",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
});

describe("a cohort's answer", () => {
  it("labels runs A, B, … and past Z", () => {
    expect(cohortLabels(3)).toEqual(["A", "B", "C"]);
    expect(cohortLabels(28).slice(25)).toEqual(["Z", "A2", "B2"]);
  });

  it("gives each run its own object, whatever the order; a run left out gets none and reads unparseable", () => {
    const raw =
      "Here are my verdicts.\n```json\n" +
      JSON.stringify({ runs: { "Run C": verdicts("SUCCESSFUL"), a: { ...verdicts("ATTEMPTED"), rationale: "A" } } }) +
      "\n```";
    const split = splitCohortAnswer(raw, ["A", "B", "C"]);
    expect([...split.keys()]).toEqual(["A", "B", "C"]);
    expect(split.get("B")).toBeNull();
    expect(parseJudgeAnswer(split.get("A")!, FOUR)).toMatchObject({
      status: "PARSED",
      verdicts: { UPSTREAM: "ATTEMPTED" },
    });
    expect(parseJudgeAnswer(split.get("C")!, FOUR)).toMatchObject({ verdicts: { UPSTREAM: "SUCCESSFUL" } });
  });

  it('reads runs as a list naming each, or at the top without "runs"', () => {
    const list = JSON.stringify({ runs: [{ run: "B", ...verdicts("ATTEMPTED") }] });
    expect(splitCohortAnswer(list, ["A", "B"]).get("B")).toContain('"UPSTREAM":"ATTEMPTED"');
    const top = JSON.stringify({ A: verdicts("NOT_ATTEMPTED") });
    expect(splitCohortAnswer(top, ["A"]).get("A")).toContain("NOT_ATTEMPTED");
    expect(splitCohortAnswer("no json at all", ["A"]).get("A")).toBeNull();
  });
});
