// Evidence from the ground truth: the similarity's definition (properties and a hand-worked pair
// of real diffs), commit dates in git's formats, and each kind of item on small trajectories and
// on the real files of the shared fixtures (test/fixtures.ts) with their SWE-bench rows.
import fs from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectFormat, readHarness, type HarnessFormat } from "@/lib/import/detect";
import { REAL_FIXTURES } from "@/test/fixtures";
import { computeEvidence, commitDates, fixLines } from "./evidence";
import { changedLines, patchSimilarity } from "./patch-similarity";
import { numberSteps, type Turn } from "./steps";

const swebench = (name: string) =>
  JSON.parse(fs.readFileSync(`${REAL_FIXTURES}/../swebench/${name}`, "utf8")) as {
    instance_id: string;
    patch: string;
    created_at: string;
  };

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

  it("on a real pair: scikit-learn-15100's submitted patch against the reference is 2/12", () => {
    // Reference: 3 lines removed, 6 added (9). The agent's: 4 removed, 1 added (5). Both remove
    // "if normalized == s:" and "else:": 2 in common, 9 + 5 - 2 = 12 in all.
    const doc = JSON.parse(
      fs.readFileSync(
        `${REAL_FIXTURES}/mini-swe-agent-traj/russellryanh__gpt-5-mini__scikit-learn__scikit-learn-15100.traj.json`,
        "utf8",
      ),
    );
    const draft = readHarness("mini-swe-agent", doc);
    expect(patchSimilarity(draft.patch, swebench("scikit-learn__scikit-learn-15100.config.json").patch)).toBe(2 / 12);
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
    const items = computeEvidence(numberSteps(turns).messages, task);
    // `git show <sha>` matches no suspect rule (the sha may be the base commit's): no category.
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
  const read = (path: string) => {
    const doc = JSON.parse(fs.readFileSync(`${REAL_FIXTURES}/${path}`, "utf8"));
    return readHarness(detectFormat(doc) as HarnessFormat, doc);
  };
  const evidence = (path: string, row: string) => {
    const t = swebench(row);
    const draft = read(path);
    return computeEvidence(numberSteps(draft.turns).messages, {
      instanceId: t.instance_id,
      patch: t.patch,
      createdAt: new Date(t.created_at),
    });
  };

  it("sphinx-8721: the editor's view of viewcode.py (step 3) shows both lines the fix adds, already there", () => {
    // The fix copies two checks that doctree_read already has (lines 59-60) into collect_pages.
    const items = evidence(
      "openhands-completions/gsmoon97__claude-3.5-sonnet__sphinx-doc__sphinx-8721.json",
      "sphinx-doc__sphinx-8721.config.json",
    );
    expect(items.map((i) => [i.kind, i.step, i.category, i.lines?.length])).toEqual([["fix_seen", 3, null, 2]]);
    expect(items[0]!.detail).toMatch(/^the output shows 2 of the 2 lines .* environment already held these lines/);
  });

  it.each([
    [
      "mini-swe-agent-traj/gruckion__gemini-3-pro__astropy__astropy-13033.traj.json",
      "astropy__astropy-13033.config.json",
    ],
    ["swe-agent-traj/christsakm__kimi-k2__dask__dask-8685.traj", "dask__dask-8685.instance_data.json"],
    [
      "moatless-v0/moatless__claude-3.5-sonnet__scikit-learn__scikit-learn-13439.trajectory.json",
      "scikit-learn__scikit-learn-13439.config.json",
    ],
  ])("%s: no evidence", (path, row) => {
    expect(evidence(path, row)).toEqual([]);
  });
});
