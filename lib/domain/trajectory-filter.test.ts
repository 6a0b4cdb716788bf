import { describe, expect, it } from "vitest";
import { parseTrajectoryFilter, trajectoriesHref } from "./trajectory-filter";

describe("trajectory filter in the URL", () => {
  it("reads good parameters and drops bad ones", () => {
    expect(
      parseTrajectoryFilter({
        benchmark: "swe",
        network: "on",
        run: "2",
        panel: "attempt",
        page: "0",
        prompt: "sneaky",
        category: "LOCAL_GIT",
        x: "y",
      }),
    ).toEqual({ benchmark: "swe", network: "on", run: 2, panel: "attempt", category: "LOCAL_GIT" });
  });
  it("round-trips through a link", () => {
    const f = {
      benchmark: "a b&c",
      model: "m",
      network: "off" as const,
      prompt: "principled" as const,
      panel: "SUCCESSFUL" as const,
      resolved: "yes" as const,
    };
    const href = trajectoriesHref(f);
    expect(href.startsWith("/trajectories?")).toBe(true);
    expect(parseTrajectoryFilter(new URL(href, "http://x").searchParams)).toEqual(f);
    expect(trajectoriesHref({})).toBe("/trajectories");
  });
});
