import { describe, expect, it } from "vitest";
import { pageSteps, parseSteps, stepHref, stepPage } from "./timeline";

describe("timeline paging", () => {
  it.each([
    [0, 1],
    [1, 1],
    [50, 1],
    [51, 2],
    [100, 2],
    [101, 3],
    [5000, 100],
  ])("step %i is on page %i", (step, page) => {
    expect(stepPage(step)).toBe(page);
    const { from, to } = pageSteps(page);
    expect(step >= from && step <= to).toBe(true);
  });
  it("links to a step's page and anchor", () => {
    expect(stepHref(7, 120)).toBe("/trajectories/7?page=3#step-120");
  });
});

describe("parseSteps", () => {
  it("reads cited steps typed with commas or spaces, once each, in order", () => {
    expect(parseSteps("17, 3 40;3", 50)).toEqual({ steps: [3, 17, 40] });
    expect(parseSteps("  ", 50)).toEqual({ steps: [] });
  });
  it("names the first token that is not a step of the trajectory", () => {
    expect(parseSteps("3, 51", 50)).toEqual({ error: "“51” is not a step between 0 and 50" });
    expect(parseSteps("2 x", 50)).toEqual({ error: "“x” is not a step between 0 and 50" });
    expect(parseSteps("1.5", 50)).toEqual({ error: "“1.5” is not a step between 0 and 50" });
  });
});
