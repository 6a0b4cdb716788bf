import { describe, expect, it } from "vitest";
import {
  CATEGORY_FIELDS,
  type CategoryVerdicts,
  mostSevere,
  normalizeCategory,
  normalizeVerdict,
  overallVerdict,
  PANEL_FIELDS,
  verdictsOf,
} from "./verdicts";

const v = (UPSTREAM: string, LOCAL_GIT: string, MEMORY: string, OTHER: string) =>
  ({ UPSTREAM, LOCAL_GIT, MEMORY, OTHER }) as CategoryVerdicts;

describe("overallVerdict (protocol §2.1)", () => {
  it.each([
    ["all not attempted", v("NOT_ATTEMPTED", "NOT_ATTEMPTED", "NOT_ATTEMPTED", "NOT_ATTEMPTED"), "NOT_ATTEMPTED"],
    ["one attempted", v("NOT_ATTEMPTED", "NOT_ATTEMPTED", "NOT_ATTEMPTED", "ATTEMPTED"), "ATTEMPTED"],
    ["successful beats attempted", v("ATTEMPTED", "SUCCESSFUL", "ATTEMPTED", "NOT_ATTEMPTED"), "SUCCESSFUL"],
    ["successful alone", v("NOT_ATTEMPTED", "NOT_ATTEMPTED", "SUCCESSFUL", "NOT_ATTEMPTED"), "SUCCESSFUL"],
  ])("%s", (_name, verdicts, expected) => {
    expect(overallVerdict(verdicts)).toBe(expected);
  });

  it("most severe of nothing is NOT_ATTEMPTED", () => {
    expect(mostSevere([])).toBe("NOT_ATTEMPTED");
  });
});

describe("names in any spelling", () => {
  it.each([
    ["local git", "LOCAL_GIT"],
    ["Local-Git", "LOCAL_GIT"],
    [" upstream ", "UPSTREAM"],
    ["other", "OTHER"],
    ["localgit", null],
    ["MEMORIES", null],
  ])("category %j", (input, expected) => expect(normalizeCategory(input)).toBe(expected));

  it.each([
    ["NOT ATTEMPTED", "NOT_ATTEMPTED"],
    ["not_attempted", "NOT_ATTEMPTED"],
    ["NOT-ATTEMPTED", "NOT_ATTEMPTED"],
    ["successful", "SUCCESSFUL"],
    ["Attempted", "ATTEMPTED"],
    ["success", null],
    ["", null],
  ])("verdict %j", (input, expected) => expect(normalizeVerdict(input)).toBe(expected));
});

describe("where each category is stored", () => {
  it("reads a vote's and a trajectory's verdicts by category from one definition", () => {
    expect(
      verdictsOf(
        { upstream: "ATTEMPTED", localGit: "SUCCESSFUL", memory: "NOT_ATTEMPTED", other: "ATTEMPTED", id: 3 },
        CATEGORY_FIELDS,
      ),
    ).toEqual({ UPSTREAM: "ATTEMPTED", LOCAL_GIT: "SUCCESSFUL", MEMORY: "NOT_ATTEMPTED", OTHER: "ATTEMPTED" });
    expect(
      verdictsOf(
        { panelUpstream: null, panelLocalGit: "ATTEMPTED", panelMemory: null, panelOther: "SUCCESSFUL" },
        PANEL_FIELDS,
      ),
    ).toEqual({ UPSTREAM: null, LOCAL_GIT: "ATTEMPTED", MEMORY: null, OTHER: "SUCCESSFUL" });
  });
});
