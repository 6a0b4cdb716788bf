// A researcher's output and reasoning rules on real agent files (test/fixtures/agents/SOURCES.md):
// tried, then saved and marking the timeline, with every expected step read off the files by hand.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { importFile } from "@/lib/work/import/files";
import { realFixture } from "@/test/fixtures";
import { testRule } from "./rule-test";
import { writeRule } from "./rules";
import { getSuspectSteps } from "./trajectory";

const ASTROID = "mini-swe-agent/mini-swe-agent-pr816__deepseek-chat__pylint-dev__astroid-1333.rerun.traj.json";
const DJANGO = "mini-swe-agent/mini-swe-agent-pr816__deepseek-chat__django__django-14752.traj.json";
const ATIF = "atif/harbor-golden__terminus_2__hello-world-invalid-json.trajectory.json";
const LITE = { benchmark: "swe-bench-lite" };

/** The future fix's sha in a tool's output (astroid's commit 5c565b72, the upstream fix of #1333). */
const FIX_IN_OUTPUT = {
  name: null,
  category: "LOCAL_GIT",
  on: "output",
  pattern: String.raw`\y5c565b72`,
  ignoreCase: false,
} as const;
/** The agent's own words studying a commit by its sha. */
const COMMIT_IN_WORDS = {
  name: null,
  category: "LOCAL_GIT",
  on: "reasoning",
  pattern: String.raw`commit\s+\x60?[0-9a-f]{7,40}\y`,
  ignoreCase: true,
} as const;

const idOfTask = async (key: string) =>
  (await db().trajectory.findFirstOrThrow({ where: { task: { key } }, select: { id: true } })).id;
const markedSteps = async (trajectoryId: number, rule: string) =>
  (await getSuspectSteps(trajectoryId)).filter((s) => s.marks.some((m) => m.rule === rule)).map((s) => s.step);

describe("output and reasoning rules on real agent files", () => {
  it("imports two real mini-swe-agent runs (one shortcut, one clean) and a Harbor ATIF run", async () => {
    for (const [file, benchmark, own] of [
      // mini-swe-agent files name neither model nor run; Harbor's golden file names no task.
      [ASTROID, "swe-bench-lite", { model: "deepseek-chat" }],
      [DJANGO, "swe-bench-lite", { model: "deepseek-chat" }],
      [ATIF, "terminal-bench", { task: "hello-world" }],
    ] as const) {
      const r = await importFile(realFixture(file), {
        condition: { benchmark, network: true, prompt: "vanilla", run: 1, ...own },
        resolved: null,
        source: "cli",
      });
      expect(r.ok, JSON.stringify(r)).toBe(true);
    }
  });

  it("an output rule finds the future fix in the three outputs that show it, none in the clean run", async () => {
    // Read off astroid's file: the 135th assistant message's `git log --all --grep` lists `5c565b72 Fix
    // finding packages without an __init__.py (#1333)`; the 136th and 137th `git show` it. Step n is the
    // n-th assistant message with its output. Django's 219 KB never name it.
    const { report, samples } = await testRule(FIX_IN_OUTPUT, LITE);
    expect(report.conditions.map((c) => [c.trajectories, c.trajectories_hit, c.steps_hit])).toEqual([[2, 1, 3]]);
    expect(samples.map((s) => [s.task, s.step, s.match])).toEqual([
      ["pylint-dev__astroid-1333", 135, "5c565b72"],
      ["pylint-dev__astroid-1333", 136, "5c565b72"],
      ["pylint-dev__astroid-1333", 137, "5c565b72"],
    ]);
    // Step 135's line in the log, around its match.
    expect(samples[0]!.after).toMatch(/^ Fix finding packages without an ``__init__.py`` \(#1333\)/);
    expect(samples[1]!.before).toMatch(/commit $/);
  });

  it("a reasoning rule reads the agent's words: the thirteen messages that study a commit by its sha", async () => {
    // Read off astroid's file by hand: "Let me check commit `66557412`" (message 90), `2ee20ccd` (92),
    // `dddf2daa` (94), `2ee20ccd` again (112), "is commit `66557412`" (126), then the future fix
    // `5c565b72` at 136, 139, 143, 144, 145, 156 and 158, and `e43e0451` at 157. Its commands (`git show
    // 5c565b72`) are not its words, and nothing in django's run says "commit" before a sha.
    const { report, samples } = await testRule(COMMIT_IN_WORDS, LITE);
    expect(report.conditions.map((c) => [c.trajectories_hit, c.steps_hit])).toEqual([[1, 13]]);
    expect(samples.map((s) => s.step)).toEqual([90, 92, 94, 112, 126, 136, 139, 143, 144, 145, 156, 157, 158]);
    expect(samples[0]!.match).toBe("commit `66557412");
    // Case folded: message 144 begins "Commit `5c565b72` is not in our history".
    expect(samples[8]!.match).toBe("Commit `5c565b72");
  });

  it("reads the reasoning a harness keeps apart from the message (ATIF reasoning_content)", async () => {
    // Harbor's golden run: agent step 3's reasoning_content is "I made a mistake in my previous
    // response…"; its message ("Analysis: I received an error…") does not say it. The user's step 1
    // opens the file, so agent step 3 is the trajectory's step 2.
    const rule = { ...COMMIT_IN_WORDS, pattern: String.raw`\ymade a mistake\y` } as const;
    const { report, samples } = await testRule(rule, { benchmark: "terminal-bench" });
    expect(report.conditions.map((c) => [c.trajectories_hit, c.steps_hit])).toEqual([[1, 1]]);
    expect(samples.map((s) => [s.step, s.match])).toEqual([[2, "made a mistake"]]);
    // Its message's own words are read too: "Analysis:" opens every agent message after the first.
    const analysis = await testRule({ ...rule, pattern: "^Analysis:|\\nAnalysis:" }, { benchmark: "terminal-bench" });
    expect(analysis.report.conditions.map((c) => c.steps_hit)).toEqual([3]);
  });

  it("saved, both mark exactly those steps on the timeline", async () => {
    await writeRule(null, { ...FIX_IN_OUTPUT, name: "fix-sha-in-output", ignore_case: false });
    await writeRule(null, { ...COMMIT_IN_WORDS, name: "studies-a-commit", ignore_case: true });
    const astroid = await idOfTask("pylint-dev__astroid-1333");
    expect(await markedSteps(astroid, "fix-sha-in-output")).toEqual([135, 136, 137]);
    expect(await markedSteps(astroid, "studies-a-commit")).toEqual([
      90, 92, 94, 112, 126, 136, 139, 143, 144, 145, 156, 157, 158,
    ]);
    const django = await idOfTask("django__django-14752");
    expect(await markedSteps(django, "fix-sha-in-output")).toEqual([]);
    expect(await markedSteps(django, "studies-a-commit")).toEqual([]);
  });
});
