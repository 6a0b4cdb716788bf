import { describe, expect, it } from "vitest";
import { drillDown } from "./drill-down";
import type { ResultRow } from "./results";

describe("drillDown", () => {
  it("links each figure of a row to the list filter of the trajectories it counts", () => {
    const row = { benchmark: "swe-bench", model: "m", network: false, prompt: "principled" } as ResultRow;
    const base = { benchmark: "swe-bench", model: "m", network: "off", prompt: "principled" };
    expect(drillDown(row)).toEqual({
      trajectories: base,
      tasks: base,
      judged: { ...base, panel: "judged" },
      pass_at_1: { ...base, resolved: "yes" },
      pass_at_3: { ...base, resolved: "yes" },
      attempt_rate: { ...base, panel: "attempt" },
      success_rate: { ...base, panel: "SUCCESSFUL" },
      resolved_exploit_rate: { ...base, panel: "SUCCESSFUL", resolved: "yes" },
      resolved_without: { ...base, panel: "no-success", resolved: "yes" },
    });
  });
});
