// Panels: the figures follow the panel in force, and only it. A judge's answers outside the panel
// (a new judge, a new prompt version) change no figure until a researcher puts them in.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { runImport } from "@/lib/work/import/records";
import { REPORTS } from "@/lib/work/reports/formats";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { answer } from "@/test/answers";
import { runCli } from "@/test/cli";
import { setPanel } from "./panel-set";
import { panelChoices, panelsJson, parseMember } from "./panels";

const load = async (records: unknown[]) => {
  const r = await runImport({ fileName: "panels.jsonl", format: "interchange" }, asLines(records as never[]));
  expect(r.ok).toBe(true);
};
const t = (id: string, task: string) =>
  trajectoryFixture({ id, benchmark: "pn", model: "m", task: { id: task }, prompt: "vanilla" });

const panelOf = async (id: string) =>
  (await db().trajectory.findFirst({ where: { externalId: id }, select: { panelVerdict: true, panelSplit: true } }))!;

describe("the panel in force", () => {
  it("starts as the imported judges; answers outside it move no figure until it is set", async () => {
    // p1: j1 and j2 successful, j3 not attempted: successful, 2 of 3. p2: all three not attempted.
    await load([
      t("p1", "task-1"),
      t("p2", "task-2"),
      voteFixture("p1", "j1", { UPSTREAM: "SUCCESSFUL" }),
      voteFixture("p1", "j2", { UPSTREAM: "SUCCESSFUL" }),
      voteFixture("p1", "j3"),
      ...["j1", "j2", "j3"].map((j) => voteFixture("p2", j)),
    ]);
    expect(await panelOf("p1")).toEqual({ panelVerdict: "SUCCESSFUL", panelSplit: "MAJORITY" });
    const shown = await panelsJson();
    expect(shown.in_force).toMatchObject({
      name: "initial",
      judges: [
        { judge: "j1", prompt_version: null },
        { judge: "j2", prompt_version: null },
        { judge: "j3", prompt_version: null },
      ],
    });
    const before = await REPORTS.results("json");

    // A new judge, and j1 under prompt v2, both say p1 was not attempted: kept, not counted.
    await answer("j4", 2, { p1: "NOT_ATTEMPTED", p2: "NOT_ATTEMPTED" });
    await answer("j1", 2, { p1: "NOT_ATTEMPTED", p2: "SUCCESSFUL" });
    expect(await REPORTS.results("json")).toBe(before);
    expect(await panelOf("p1")).toEqual({ panelVerdict: "SUCCESSFUL", panelSplit: "MAJORITY" });
    const j1 = await db().judgeVote.findMany({
      where: { judge: { name: "j1" }, trajectory: { externalId: "p1" } },
      orderBy: { promptVersion: "asc" },
      select: { promptVersion: true, overall: true, counted: true },
    });
    // No answer replaces another's: the imported vote and the v2 answer are both kept.
    expect(j1).toEqual([
      { promptVersion: 0, overall: "SUCCESSFUL", counted: true },
      { promptVersion: 2, overall: "NOT_ATTEMPTED", counted: false },
    ]);

    // What the Judges page offers: each judge at each version it answered, two answers each (p1, p2), all
    // asked the four as the panel in force is.
    expect(await panelChoices()).toEqual([
      { judge: "j1", promptVersion: null, answers: 2, asAsked: true },
      { judge: "j1", promptVersion: 2, answers: 2, asAsked: true },
      { judge: "j2", promptVersion: null, answers: 2, asAsked: true },
      { judge: "j3", promptVersion: null, answers: 2, asAsked: true },
      { judge: "j4", promptVersion: 2, answers: 2, asAsked: true },
    ]);

    // Put in: j1 at v2, j2, j3, j4 at v2. p1: not attempted by j1@v2, j3 and j4@v2, 3 of 4.
    // p2: successful by j1@v2 only: not attempted, 3 of 4.
    await setPanel(
      null,
      ["j1@v2", "j2", "j3", "j4@v2"].map((m) => parseMember(m) as never),
      "four",
    );
    expect(await panelOf("p1")).toEqual({ panelVerdict: "NOT_ATTEMPTED", panelSplit: "MAJORITY" });
    expect(await REPORTS.results("json")).not.toBe(before);
    const results = JSON.parse(await REPORTS.results("json")) as Array<{ benchmark: string; attempt_rate: number }>;
    // Neither trajectory attempted: 0 of 2.
    expect(results.find((r) => r.benchmark === "pn")!.attempt_rate).toBe(0);
    expect((await panelsJson()).earlier).toMatchObject([{ name: "initial" }]);
  });

  it("with an even number of judges, a tie is counted attempted", async () => {
    // j1@v2 says p2 successful, j2 says not attempted: neither has more than half.
    await setPanel(null, [parseMember("j1@v2"), parseMember("j2")] as never, "two");
    expect(await panelOf("p2")).toEqual({ panelVerdict: "ATTEMPTED", panelSplit: "NO_MAJORITY" });
  });

  it("refuses an unknown judge, a version it never answered under, and a name in use", async () => {
    await expect(setPanel(null, [{ judge: "nobody", promptVersion: null }])).rejects.toThrow(/no judge named "nobody"/);
    await expect(setPanel(null, [{ judge: "j4", promptVersion: null }])).rejects.toThrow(/j4 has no imported votes/);
    await expect(setPanel(null, [{ judge: "j2", promptVersion: 7 }])).rejects.toThrow(/no answers under prompt v7/);
    await expect(setPanel(null, [{ judge: "j2", promptVersion: null }], "two")).rejects.toThrow(/exists already/);
    expect(parseMember("j@v0")).toEqual({ error: expect.stringMatching(/v1 or later/) });
    expect(parseMember("j@v2147483648")).toEqual({ error: expect.stringMatching(/v1 or later/) });
    expect(parseMember("a\u0000b")).toEqual({ error: expect.stringMatching(/not JUDGE or JUDGE@vN/) });
    await expect(setPanel(null, [{ judge: "j2", promptVersion: null }], "x".repeat(201))).rejects.toThrow(/200/);
  });

  it("a judge whose votes are imported after a researcher set a panel does not join it", async () => {
    await load([voteFixture("p1", "j5", { UPSTREAM: "SUCCESSFUL" })]);
    expect((await panelsJson()).in_force).toMatchObject({ name: "two" });
    const j5 = await db().judgeVote.findFirst({ where: { judge: { name: "j5" } }, select: { counted: true } });
    expect(j5).toEqual({ counted: false });
  });

  it.runIf(process.env.DATABASE_URL)("npm run cli -- panel set and panel show", () => {
    const target = currentDb().target;
    if (target.kind !== "postgres") throw new Error("PostgreSQL only");
    const cli = (...args: string[]) => runCli(target.url, ...args);
    const bad = cli("panel", "set", "j2@v7");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/j2 has no answers under prompt v7/);
    const set = cli("panel", "set", "j2", "j3", "j1@v2", "--name", "from the command line");
    expect(set.status, set.stderr).toBe(0);
    const shown = cli("panel", "show", "--format", "json");
    expect(shown.status, shown.stderr).toBe(0);
    const json = JSON.parse(shown.stdout);
    expect(json.in_force).toMatchObject({
      name: "from the command line",
      judges: [
        { judge: "j1", prompt_version: 2 },
        { judge: "j2", prompt_version: null },
        { judge: "j3", prompt_version: null },
      ],
      set_by: null,
    });
    expect(json.earlier.map((p: { name: string }) => p.name)).toEqual(["two", "four", "initial"]);
  });
});
