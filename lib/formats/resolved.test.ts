// Resolved status from every shape of evaluation output, on real reports (test/fixtures/agents/labels)
// and one made by hand where no licensed real one exists (SWE-bench/experiments' results.json).
import { describe, expect, it } from "vitest";
import { readRealJson } from "@/test/fixtures";
import { combineLookups, resolvedLookup } from "./resolved";

const lookup = (file: string) => resolvedLookup(readRealJson(`labels/${file}`), file);

describe("resolved reports", () => {
  it("a SWE-bench report.json keyed by instance id knows only its instances", () => {
    const r = lookup("mini-swe-agent-pr816__django__django-14752.report.json");
    expect(r("django__django-14752")).toBe(true);
    expect(r("django__django-11099")).toBeNull();
  });

  it("a flat report.json (one instance: SWE-smith's) answers for the file it comes with", () => {
    expect(lookup("swe-smith__pandas-dev__pandas.95280573.pr_53856.report.json")("anything")).toBe(false);
    expect(lookup("gruckion__astropy__astropy-13033.report.json")("astropy__astropy-13033")).toBe(false);
  });

  it("the SWE-bench harness's run report: resolved_ids; an id in no list was not evaluated", () => {
    // 23 completed, 8 of them resolved (astroid-1333 among them), 15 unresolved.
    const r = lookup("mini-swe-agent-pr816__deepseek__deepseek-chat.deepseek_chat_dev_rerun.json");
    expect(r("pylint-dev__astroid-1333")).toBe(true);
    expect(r("pylint-dev__astroid-1268")).toBe(false);
    expect(r("django__django-14752")).toBeNull();
  });

  it("SWE-smith's run report: ids_resolved beside ids_unresolved (its `resolved` is a count)", () => {
    const r = lookup("swe-smith__run_evaluation.report.json");
    expect(r("pandas-dev__pandas.95280573.pr_53652")).toBe(true);
    expect(r("Project-MONAI__MONAI.a09c1f08.pr_4186")).toBe(false);
    expect(r("never__evaluated-1")).toBeNull();
  });

  it("results.json with only a resolved list: every id not in it failed", () => {
    const r = lookup("made-by-hand__openhands-pr5306__results.json");
    expect(r("django__django-11099")).toBe(true);
    expect(r("django__django-11141")).toBe(false);
  });

  it("several reports: the first that knows the task answers", () => {
    const r = combineLookups([
      lookup("mini-swe-agent-pr816__django__django-14752.report.json"),
      lookup("mini-swe-agent-pr816__deepseek__deepseek-chat.deepseek_chat_dev_rerun.json"),
    ]);
    expect([r("django__django-14752"), r("pylint-dev__astroid-1333"), r("x__y-1")]).toEqual([true, true, null]);
  });

  it("anything else is refused naming the file and the shapes it may have", () => {
    expect(() => resolvedLookup({ resolved: 3 }, "counts.json")).toThrow(
      /^counts\.json: not a SWE-bench report\.json .* "resolved_ids" or "ids_resolved"/,
    );
  });
});
