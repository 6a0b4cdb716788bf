import { describe, expect, it } from "vitest";
import { conditionText, networkWords } from "./charts";

describe("a trajectory's condition in words", () => {
  it("names network on and off with their marks, and the condition in one line", () => {
    expect(networkWords(true)).toBe("on ✓");
    expect(networkWords(false)).toBe("off ×");
    expect(conditionText({ benchmark: "swe-bench", model: "m1", network: false, prompt: "principled", run: 2 })).toBe(
      "swe-bench · m1 · network off × · principled · run 2",
    );
  });
});
