import { describe, expect, it } from "vitest";
import { filtersBeyondTheForm, parseTrajectoryFilter, trajectoriesHref } from "./trajectory-filter";

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

describe("filters the form has no field for", () => {
  it("are said in words, each with the list without it (and from page 1)", () => {
    const f = parseTrajectoryFilter(
      new URLSearchParams("benchmark=b&pair=attempt&judge=j1&judgeVerdict=unparseable&study=S&page=3"),
    );
    expect(filtersBeyondTheForm(f)).toEqual([
      {
        words: "items of the study “S”",
        without: "/trajectories?benchmark=b&judge=j1&judgeVerdict=unparseable&pair=attempt",
      },
      {
        words: "in a vanilla → principled pair: the other prompt's run answers “attempted?” differently",
        without: "/trajectories?benchmark=b&judge=j1&judgeVerdict=unparseable&study=S",
      },
      {
        words: "judge j1 voted, an answer that could not be read",
        without: "/trajectories?benchmark=b&pair=attempt&study=S",
      },
    ]);
    expect(filtersBeyondTheForm(parseTrajectoryFilter(new URLSearchParams("benchmark=b")))).toEqual([]);
  });
});
