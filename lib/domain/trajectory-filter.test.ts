import { describe, expect, it } from "vitest";
import {
  filtersBeyondTheForm,
  parseTrajectoryFilter,
  readTrajectoryFilter,
  trajectoriesHref,
  triedRule,
} from "./trajectory-filter";

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

  it("name a rule being tried and a cell of the four (the Rules page's links), and round-trip", () => {
    // A pattern with a backslash, a plus and an ampersand survives the address.
    const href = trajectoriesHref({
      tryOn: "output",
      tryPattern: String.raw`\yfix\s+a&b+`,
      tryCase: "ignore",
      ruleFires: "no",
      category: "UPSTREAM",
      goldVerdict: "attempt",
    });
    const f = parseTrajectoryFilter(new URL(href, "http://x").searchParams);
    expect(triedRule(f)).toEqual({ on: "output", pattern: String.raw`\yfix\s+a&b+`, ignoreCase: true });
    expect(filtersBeyondTheForm(f, { UPSTREAM: "Upstream" }).map((x) => x.words)).toEqual([
      String.raw`the rule being tried (output: \yfix\s+a&b+, ignoring case) does not fire on it`,
      "the gold label says Upstream: attempted or successful",
    ]);
    // Removing the rule tried removes all of it and its turn; the category stays for the gold cell.
    expect(filtersBeyondTheForm(f)[0]!.without).toBe("/trajectories?category=UPSTREAM&goldVerdict=attempt");
    // Half a rule (no pattern) is none; a control character in a pattern makes the address bad.
    expect(triedRule(parseTrajectoryFilter(new URLSearchParams("tryOn=command")))).toBeNull();
    expect(readTrajectoryFilter(new URLSearchParams("tryOn=command&tryPattern=a%00b")).invalid).toEqual(["tryPattern"]);
  });
});

describe("a figure's trajectories by id", () => {
  it("reads up to 500 ids once each, refuses the rest, and writes them back", () => {
    const { filter } = readTrajectoryFilter(new URLSearchParams("ids=3,1,3"));
    expect(filter.ids).toEqual([3, 1]);
    expect(trajectoriesHref(filter)).toBe("/trajectories?ids=3%2C1");
    const many = Array.from({ length: 501 }, (_, i) => i + 1).join(",");
    for (const bad of ["0", "1,,2", "2147483648", many, "1;2"])
      expect(readTrajectoryFilter(new URLSearchParams({ ids: bad })).invalid).toEqual(["ids"]);
    expect(filtersBeyondTheForm(filter)[0]!.words).toBe("2 trajectories a figure chose");
  });
});
