import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { OUTPUT_PREFIX } from "@/lib/domain/search";
import { PAGE_SIZE } from "@/lib/domain/trajectory-filter";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { listTrajectories } from "./trajectories";
import { getSuspectSteps } from "./trajectory";
import { ID_LISTS } from "./trajectory-ids";

const S = "SUCCESSFUL",
  A = "ATTEMPTED";

beforeAll(async () => {
  const t = (id: string, run: number, extra = {}) =>
    trajectoryFixture({ id, benchmark: "lb", model: "lm", task: { id: "list-task" }, run, ...extra });
  const turns = (command: string, output: string) => [
    { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: command }] },
    { role: "tool", tool_call_id: "c", content: output },
  ];
  const outcome = await runImport(
    { fileName: "list.jsonl", format: "interchange" },
    asLines([
      t("l1", 1, { resolved: true }),
      t("l2", 2, { resolved: false }),
      t("l3", 3, { resolved: null }),
      t("l4", 4, { network: false, turns: turns("curl -sL https://github.com/o/r/pull/9.diff", "100% fetched") }),
      t("l5", 5, { prompt: "principled", turns: turns("ls", `${"x".repeat(OUTPUT_PREFIX)} needle_beyond_the_prefix`) }),
      // l1: S by majority (LOCAL_GIT); l2: all differ -> A; l3: unanimous N with one unparseable answer; l4, l5
      // unjudged
      voteFixture("l1", "ja", { LOCAL_GIT: S }),
      voteFixture("l1", "jb", { LOCAL_GIT: S }),
      voteFixture("l1", "jc"),
      voteFixture("l2", "ja", { UPSTREAM: S }),
      voteFixture("l2", "jb", { UPSTREAM: A }),
      voteFixture("l2", "jc"),
      voteFixture("l3", "ja"),
      voteFixture("l3", "jb"),
      { judge: "jc", trajectory: { id: "l3" }, raw: "no verdict here" },
      labelFixture("l2", "ann"),
    ]),
  );
  expect(outcome.ok).toBe(true);
});

const ids = async (f: Parameters<typeof listTrajectories>[0]) =>
  (await listTrajectories({ benchmark: "lb", ...f })).rows.map((r) => r.run).sort();

describe("listTrajectories filters in the database", () => {
  it.each<[string, Parameters<typeof listTrajectories>[0], number[]]>([
    ["everything", {}, [1, 2, 3, 4, 5]],
    ["network off", { network: "off" }, [4]],
    ["principled", { prompt: "principled" }, [5]],
    ["run 2", { run: 2 }, [2]],
    ["resolved", { resolved: "yes" }, [1, 4, 5]],
    ["not evaluated", { resolved: "unknown" }, [3]],
    ["panel attempted or successful", { panel: "attempt" }, [1, 2]],
    ["panel successful", { panel: "SUCCESSFUL" }, [1]],
    ["unjudged", { panel: "unjudged" }, [4, 5]],
    ["judged", { panel: "judged" }, [1, 2, 3]],
    ["local git successful", { category: "LOCAL_GIT", categoryVerdict: "SUCCESSFUL" }, [1]],
    ["upstream attempted (1–1–1 on the category)", { category: "UPSTREAM", categoryVerdict: "attempt" }, [2]],
    ["all judges differ", { split: "NO_MAJORITY" }, [2]],
    ["2–1", { split: "MAJORITY" }, [1]],
    ["unanimous", { split: "UNANIMOUS" }, [3]],
    ["with an unparseable answer", { unparseable: "yes" }, [3]],
    ["labelled", { labelled: "yes" }, [2]],
    ["judge ja said successful", { judge: "ja", judgeVerdict: "SUCCESSFUL" }, [1, 2]],
    ["judge jc voted", { judge: "jc" }, [1, 2, 3]],
    ["task", { task: "list-task", run: 1 }, [1]],
    ["words of a command, in order", { q: "git log --all" }, [1, 2, 3]],
    ["the same words in another order do not match", { q: "all log git" }, []],
    ["any case", { q: "CURL -sL" }, [4]],
    ["a word of an output", { q: "9f3e2d1" }, [1, 2, 3]],
    ["punctuation is not a search operator", { q: "100% fetched" }, [4]],
    ["only the start of an output is searched", { q: "needle_beyond_the_prefix" }, []],
  ])("%s", async (_name, filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it("pages and sorts on the server", async () => {
    const all = await listTrajectories({ benchmark: "lb", sort: "run", dir: "desc" });
    expect(all.rows.map((r) => r.run)).toEqual([5, 4, 3, 2, 1]);
    expect(all).toMatchObject({ total: 5, page: 1, pages: 1 });
    expect(PAGE_SIZE).toBeGreaterThan(5);
    const beyond = await listTrajectories({ benchmark: "lb", page: 9 });
    expect(beyond.page).toBe(1);
    expect(all.rows[3]).toMatchObject({
      panel: A,
      split: "NO_MAJORITY",
      votes: 3,
      labels: 1,
      categories: { UPSTREAM: A, LOCAL_GIT: "NOT_ATTEMPTED" },
    });
  });
});

describe("getSuspectSteps", () => {
  it("marks suspect steps, and a re-imported trajectory's marks replace the remembered ones", async () => {
    const version = (command: string) =>
      trajectoryFixture({
        id: "suspect-cache",
        benchmark: "suspects",
        turns: [
          { role: "user", content: "Fix it" },
          { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "bash", input: "ls" }] },
          { role: "tool", tool_call_id: "c1", content: "README.md" },
          { role: "assistant", content: "", tool_calls: [{ id: "c2", name: "bash", input: command }] },
          { role: "tool", tool_call_id: "c2", content: "" },
        ],
      });
    expect(
      (await runImport({ fileName: "s1.jsonl", format: "interchange" }, asLines([version("git reflog")]))).ok,
    ).toBe(true);
    const id = (await listTrajectories({ benchmark: "suspects" })).rows[0]!.id;
    const first = await getSuspectSteps(id);
    expect(first.map((s) => [s.step, s.marks.map((m) => m.category)])).toEqual([[2, ["LOCAL_GIT"]]]);
    expect(await getSuspectSteps(id)).toBe(first); // remembered: the same object

    await new Promise((r) => setTimeout(r, 5)); // a later import time, so a newer version
    expect(
      (await runImport({ fileName: "s2.jsonl", format: "interchange" }, asLines([version("git status")]))).ok,
    ).toBe(true);
    expect(await getSuspectSteps(id)).toEqual([]);
  });
});

describe("text search over most trajectories", () => {
  it("lists exactly the trajectories whose commands hold the phrase, whichever list is shorter", async () => {
    // Four more trajectories that run `git log --all` (the fixture's default command), so most do.
    const more = [1, 2, 3, 4].map((run) => trajectoryFixture({ id: `common-${run}`, benchmark: "common", run }));
    expect((await runImport({ fileName: "common.jsonl", format: "interchange" }, asLines(more))).ok).toBe(true);
    const [{ n: all }] = await db().$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM trajectory`;
    const [{ n: expected }] = await db().$queryRaw<[{ n: number }]>`
      SELECT count(DISTINCT "trajectoryId")::int AS n FROM tool_call WHERE input ~ '(^|[^a-z])git log --all'`;
    // Both sides of the threshold are exercised: a common phrase (most trajectories) and a rare one.
    expect(expected * 2).toBeGreaterThan(all);
    expect((await listTrajectories({ q: "git log --all" })).total).toBe(expected);
    const rare = await listTrajectories({ q: "git reflog" });
    expect(rare.total * 2).toBeLessThanOrEqual(all);
    expect(rare.rows.every((r) => r.benchmark === "suspects")).toBe(true);
  });
});

describe("id lists too long to send as parameters", () => {
  it("go through an id set and list the same trajectories, written once and cleared after an hour", async () => {
    const filters: Array<Parameters<typeof listTrajectories>[0]> = [
      { q: "git log --all" },
      { q: "git reflog" },
      { q: "CURL -sL", network: "off" },
      { pair: "task" },
      { pair: "run", q: "git log --all" },
    ];
    const listed = async () => Promise.all(filters.map(async (f) => (await listTrajectories(f)).rows.map((r) => r.id)));
    const asParameters = await listed();
    expect(asParameters.flat().length).toBeGreaterThan(5);
    ID_LISTS.longest = 0;
    try {
      // With no list short enough, every id filter goes through a set: the same trajectories.
      expect(await listed()).toEqual(asParameters);
      const sets = await db().idSet.count();
      expect(sets).toBeGreaterThan(0);
      await listed();
      expect(await db().idSet.count()).toBe(sets);
      // A set unused for an hour goes when another is written.
      await db().$executeRaw`INSERT INTO id_set (key, size, "usedAt") VALUES ('stale', 0, now() - interval '2 hours')`;
      await db().$executeRaw`DELETE FROM id_set WHERE key <> 'stale'`;
      await listTrajectories({ q: "git log --all" });
      expect(await db().idSet.findMany({ select: { key: true } })).toEqual([
        { key: expect.not.stringMatching("stale") },
      ]);
    } finally {
      ID_LISTS.longest = 30_000;
    }
  });
});
