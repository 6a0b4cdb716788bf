import { describe, expect, it } from "vitest";
import { pageSteps, stepHref, stepPage } from "./timeline";

describe("timeline paging", () => {
  it.each([[0, 1], [1, 1], [50, 1], [51, 2], [100, 2], [101, 3], [5000, 100]])("step %i is on page %i", (step, page) => {
    expect(stepPage(step)).toBe(page);
    const { from, to } = pageSteps(page);
    expect(step >= from && step <= to).toBe(true);
  });
  it("links to a step's page and anchor", () => {
    expect(stepHref(7, 120)).toBe("/trajectories/7?page=3#step-120");
  });
});
