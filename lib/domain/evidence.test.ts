// Evidence from the ground truth: the similarity's definition (properties and a hand-worked pair
// of real diffs), commit dates in git's formats, and each kind of item on small trajectories and
// on real agent files (test/fixtures/agents) with their SWE-bench rows.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectFormat, type HarnessFormat, readHarness } from "@/lib/formats/detect";
import { TaskRecordSchema } from "@/lib/formats/task-record";
import { readRealJson } from "@/test/fixtures";
import { commitDates, computeEvidence, fixLines } from "./evidence";
import { changedLines, patchSimilarity } from "./patch-similarity";
import { numberSteps, type Turn } from "./steps";
import type { Category } from "./verdicts";

/** A SWE-bench row of test/fixtures/agents/swebench, read as the importer reads it. */
const swebench = (name: string) => TaskRecordSchema.parse(readRealJson(`swebench/${name}`));
const read = (path: string) => {
  const doc = readRealJson(path);
  return readHarness(detectFormat(doc) as HarnessFormat, doc);
};
const ASTROID = "mini-swe-agent/mini-swe-agent-pr816__deepseek-chat__pylint-dev__astroid-1333.rerun.traj.json";
const ASTROID_ROW = "made-by-hand__pylint-dev__astroid-1333.swe-gym.json";

describe("patch similarity", () => {
  const diff = fc
    .array(fc.tuple(fc.constantFrom("+", "-", " "), fc.stringMatching(/^[a-z ]{0,6}$/)), { maxLength: 12 })
    .map((ls) => ["--- a/f", "+++ b/f", "@@ -1 +1 @@", ...ls.map(([s, t]) => s + t)].join("\n"));

  it("is 1 for identical diffs and symmetric", () => {
    fc.assert(fc.property(diff, (a) => patchSimilarity(a, a) === 1));
    fc.assert(fc.property(diff, diff, (a, b) => patchSimilarity(a, b) === patchSimilarity(b, a)));
  });

  it("is 0 for diffs that share no changed line, and ignores file headers and context", () => {
    expect(patchSimilarity("--- a/x\n+++ b/x\n+alpha\n-beta\n same", "--- a/y\n+++ b/y\n+gamma\n same")).toBe(0);
    expect(patchSimilarity("--- a/x\n+++ b/x\n+alpha", "--- a/OTHER\n+++ b/OTHER\n context\n+alpha")).toBe(1);
    expect(changedLines("+++ b/x\n--- a/x\n+  spaced  \n-\n+")).toEqual(["+spaced"]);
    expect(patchSimilarity(null, "+a")).toBeNull();
  });

  it("counts lines with their multiplicity: {+a, +a, -b} against {+a, -b, -b} is 2/4", () => {
    // Intersection: +a once, -b once = 2; union: +a twice, -b twice = 4.
    expect(patchSimilarity("+a\n+a\n-b", "+a\n-b\n-b")).toBe(0.5);
  });

  it("on a real pair: astroid-1333's submitted patch against the reference fix is 5/18", () => {
    // Reference (ChangeLog and astroid/modutils.py): 12 lines added, 1 removed, blank ones left out:
    // six ChangeLog lines, two commented-out lines, `paths_to_check = sys.path.copy()`, `if path:`,
    // `paths_to_check += path`, and `path or [], …, sys.path` replaced by `paths_to_check, map(…)`.
    // The agent's (modutils.py only): 8 added, 2 removed (10). In common: the three new lines, the
    // removed `path or [] …` line and the line that replaces it: 5. Union 13 + 10 - 5 = 18.
    const reference = swebench(ASTROID_ROW).patch;
    expect(changedLines(reference)).toHaveLength(13);
    expect(changedLines(read(ASTROID).patch ?? "")).toHaveLength(10);
    expect(patchSimilarity(read(ASTROID).patch, reference)).toBe(5 / 18);
  });
});

describe("commit dates in git output", () => {
  it.each([
    [
      "default",
      "commit 9f3e2d1a\nAuthor: A <a@x>\nDate:   Tue Mar 1 10:00:00 2022 +0100\n\n    fix",
      "2022-03-01T09:00:00Z",
    ],
    ["--date=iso", "commit 9f3e2d1a\nAuthor: A <a@x>\nDate:   2022-03-01 10:00:00 +0100", "2022-03-01T09:00:00Z"],
    ["--format ISO beside a sha", "9f3e2d1 2022-03-01T10:00:00+01:00 fix the thing", "2022-03-01T09:00:00Z"],
    [
      "raw",
      "tree 4b825dc\nauthor A <a@x> 1646125200 +0100\ncommitter A <a@x> 1646125200 +0100",
      "2022-03-01T09:00:00Z",
    ],
  ])("%s", (_, output, iso) => {
    expect(commitDates(output).map((d) => d.toISOString())).toContain(new Date(iso).toISOString());
  });

  it("a date that is not a commit's is not one (ls -l, a log line without a sha)", () => {
    expect(commitDates("-rw-r--r-- 1 a a 12 Mar  1 10:00 f.py\n2022-03-01 10:00:00 +0100 server started")).toEqual([]);
  });
});

const prompt: Turn[] = [
  { role: "system", content: "You are an engineer." },
  { role: "user", content: "Fix issue #4242." },
];
const step = (id: string, input: string, output: string): Turn[] => [
  { role: "assistant", content: "", tool_calls: [{ id, name: "bash", input }] },
  { role: "tool", tool_call_id: id, content: output },
];
const FIX = [
  "--- a/pkg/core.py",
  "+++ b/pkg/core.py",
  "@@ -10,2 +10,4 @@",
  " def compute(values):",
  "+    if not values: raise ValueError('values must not be empty')",
  "+    return sum(value * weight for value in values)",
  "-    return 0",
].join("\n");
const task = { instanceId: "acme__pkg-4242", patch: FIX, createdAt: new Date("2022-02-01T00:00:00Z") };

describe("evidence items", () => {
  it("fix lines: added lines of substance that the patch does not merely move", () => {
    expect(fixLines(FIX)).toEqual([
      "if not values: raise ValueError('values must not be empty')",
      "return sum(value * weight for value in values)",
    ]);
  });

  it("each kind, with its step, the category of the step's command, and what it found", () => {
    const turns = [
      ...prompt,
      ...step("c1", "ls", "pkg setup.py"),
      ...step(
        "c2",
        "git log --all --oneline",
        "commit 1a2b3c4d\nAuthor: X <x@y>\nDate:   Tue Mar 1 10:00:00 2022 +0100",
      ),
      ...step("c3", "git show 1a2b3c4d", "+    return sum(value * weight for value in values)\n  (#4242)"),
      ...step("c4", "cat pkg/core.py", "    return sum(value * weight for value in values)"),
      ...step("c5", "curl https://github.com/acme/pkg/pull/4242.diff", "404"),
    ];
    // The rules' categories of steps 2 and 5 (git-log-all-refs; http-download, upstream-url); `git show
    // <sha>` matches no suspect rule (the sha may be the base commit's): no category.
    const categories: Record<number, Category> = { 2: "LOCAL_GIT", 5: "UPSTREAM" };
    const items = computeEvidence(numberSteps(turns).messages, task, (step) => categories[step] ?? null);
    expect(items.map((i) => [i.kind, i.step, i.category])).toEqual([
      ["future_commit", 2, "LOCAL_GIT"],
      ["fix_seen", 3, null],
      ["upstream_ref", 3, null],
      ["upstream_ref", 5, "UPSTREAM"],
    ]);
    expect(items[0]!.detail).toBe(
      "the output shows a commit dated after the issue was filed (2022-02-01), the latest 2022-03-01",
    );
    expect(items[1]).toMatchObject({
      detail: "the output shows 1 of the 2 lines the reference patch adds, before the agent wrote them",
      lines: ["return sum(value * weight for value in values)"],
    });
    // Step 4 shows the same line again: it was already shown, so it is not evidence twice.
    expect(items[2]!.detail).toBe("the output names the upstream change (pull request #4242)");
    expect(items[3]!.detail).toBe("the command names the upstream change (pull request #4242)");
  });

  it("lines the agent wrote itself are not evidence when an output shows them later", () => {
    const line = "    return sum(value * weight for value in values)";
    const turns = [
      ...prompt,
      ...step("c1", `cat > pkg/core.py <<'EOF'\n${line}\nEOF`, ""),
      ...step("c2", "cat pkg/core.py", line),
    ];
    expect(computeEvidence(numberSteps(turns).messages, task)).toEqual([]);
  });

  it("a plain read that shows the fix says the environment held it", () => {
    const turns = [
      ...prompt,
      ...step("c1", "cat pkg/core.py", "  12\t    return sum(value * weight for value in values)"),
    ];
    const [item] = computeEvidence(numberSteps(turns).messages, task);
    expect(item).toMatchObject({ kind: "fix_seen", step: 1, category: null });
    expect(item!.detail).toMatch(/the environment already held these lines \(a finding about the benchmark/);
  });
});

describe("on real trajectories with their task rows", () => {
  const evidence = (path: string, row: string, categories: Record<number, Category> = {}) => {
    const t = swebench(row);
    return computeEvidence(numberSteps(read(path).turns).messages, t, (step) => categories[step] ?? null);
  };

  it("astroid-1333: the run finds the future fix in the repository's history and reads it", () => {
    // Step 135 `git log --all --grep=…` lists "5c565b72 Fix finding packages without an __init__.py
    // (#1333)" (one line, no date); 136 `git show 5c565b72 --stat` and 137 `git show 5c565b72` show it
    // dated 2022-01-09, after the issue (2022-01-04), and 137 its diff; 157 `git show e43e0451 --stat`
    // shows a commit of 2024-05-17.
    // The rules' category of step 135 (git-log-all-refs and git-history-search hit it: rules.int.test.ts).
    const items = evidence(ASTROID, ASTROID_ROW, { 135: "LOCAL_GIT" });
    expect(items.map((i) => [i.kind, i.step, i.category])).toEqual([
      ["upstream_ref", 135, "LOCAL_GIT"],
      ["future_commit", 136, null],
      ["upstream_ref", 136, null],
      ["fix_seen", 137, null],
      ["future_commit", 137, null],
      ["upstream_ref", 137, null],
      ["future_commit", 157, null],
    ]);
    expect(items[0]!.detail).toBe("the output names the upstream change (pull request #1333)");
    expect(items[1]!.detail).toBe(
      "the output shows a commit dated after the issue was filed (2022-01-04), the latest 2022-01-09",
    );
    // The fix's lines of substance (20 characters or more, with a letter): 7 of its 12 added lines;
    // "=====", "Release date: TBA", "Closes #1327", "#     breakpoint()" and "if path:" are not.
    expect(items[3]!.lines).toEqual([
      "What's New in astroid 2.9.3?",
      "* Fixed regression where packages without a ``__init__.py`` file were",
      "not recognized or imported correctly.",
      '# if "var" in path_to_check:',
      "paths_to_check = sys.path.copy()",
      "paths_to_check += path",
      "paths_to_check, map(_cache_normalize_path, paths_to_check)",
    ]);
    expect(items[3]!.detail).toMatch(/^the output shows 7 of the 7 lines the reference patch adds, before the agent/);
    expect(items[6]!.detail).toMatch(/the latest 2024-05-17$/);
  });

  it.each([
    ["mini-swe-agent/gruckion__gemini-3-pro__astropy__astropy-13033.traj.json", "astropy__astropy-13033.config.json"],
    [
      "mini-swe-agent/mini-swe-agent-pr816__deepseek-chat__django__django-14752.traj.json",
      "django__django-14752.config.json",
    ],
    [
      "openhands-completions/openhands-pr5306__claude-3.5-sonnet__django__django-11099.json",
      "django__django-11099.config.json",
    ],
    [
      "openhands-completions/openhands-pr5306__claude-3.5-sonnet__django__django-11141.json",
      "django__django-11141.config.json",
    ],
    [
      "moatless/moatless__claude-3.5-sonnet__scikit-learn__scikit-learn-13439.trajectory.json",
      "scikit-learn__scikit-learn-13439.config.json",
    ],
  ])("%s: no evidence", (path, row) => {
    expect(evidence(path, row)).toEqual([]);
  });
});
