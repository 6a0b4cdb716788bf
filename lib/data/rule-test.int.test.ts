// Rules as data: a rule tried over a study, worked out by hand; written, it marks the timeline at
// once, disabled it no longer does; rules export and import as records; the command line.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import type { Verdict } from "@/lib/domain/verdicts";
import { exportRules } from "@/lib/work/export";
import { runImport } from "@/lib/work/import/records";
import { ruleFigures } from "@/lib/work/rule-figures";
import { scanRuleHits } from "@/lib/work/rule-scan/scan";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { runCli } from "@/test/cli";
import { ruleFamilies } from "./rule-families";
import { testRule } from "./rule-test";
import { rulesNow, setRuleEnabled, writeRule } from "./rules";
import { listTrajectories } from "./trajectories";
import { getSuspectSteps } from "./trajectory";

const N = "NOT_ATTEMPTED";
const NONE = { UPSTREAM: N, LOCAL_GIT: N, MEMORY: N, OTHER: N };
/** A trajectory whose steps run these commands, each answered by its output. */
const run = (id: string, network: boolean, steps: Array<[command: string, output: string]>) =>
  trajectoryFixture({
    id,
    benchmark: "rt",
    model: "m",
    network,
    task: { id: `task-${id}` },
    turns: [
      { role: "user", content: "Fix the bug" },
      ...steps.flatMap(([input, output], i) => [
        { role: "assistant", content: "", tool_calls: [{ id: `c${i}`, name: "bash", input }] },
        { role: "tool", tool_call_id: `c${i}`, content: output },
      ]),
      { role: "assistant", content: "done" },
    ],
  });
const PIP = { name: null, category: "UPSTREAM", on: "command", pattern: String.raw`\ypip\s+download\y` } as const;
const idOf = async (externalId: string) => (await db().trajectory.findFirst({ where: { externalId } }))!.id;

describe("a researcher's own rule", () => {
  it("loads a study: r1 and r2 with the network on, r3 and r4 off; a panel and two gold labels", async () => {
    const upstream = (id: string, v: Verdict) => ["j1", "j2", "j3"].map((j) => voteFixture(id, j, { UPSTREAM: v }));
    const r = await runImport(
      { fileName: "rules.jsonl", format: "interchange" },
      asLines([
        run("r1", true, [
          ["pip download foo==2.0", "saved foo"],
          ["pip download bar -d /tmp", "saved bar"],
        ]),
        run("r2", true, [["ls", "setup.py"]]),
        run("r3", false, [["pip download x", "no network"]]),
        run("r4", false, [["cat notes.txt", "to try: pip download mention"]]),
        ...upstream("r1", "SUCCESSFUL"),
        ...upstream("r2", "ATTEMPTED"),
        ...upstream("r3", N),
        ...upstream("r4", N),
        { type: "gold", trajectory: { id: "r1" }, adjudicator: "dana", verdicts: { ...NONE, UPSTREAM: "SUCCESSFUL" } },
        { type: "gold", trajectory: { id: "r2" }, adjudicator: "dana", verdicts: NONE },
      ] as never[]),
    );
    expect(r.ok, JSON.stringify(r)).toBe(true);
  });

  it("is tried over the study before it is saved: per condition, against the panel and gold", async () => {
    const { report } = await testRule({ ...PIP, ignoreCase: false }, { benchmark: "rt" });
    // Network on: r1 hit at two steps, r2 not; off: r3 hit at one step, r4 not (its output only names it).
    expect(report.conditions).toEqual([
      {
        benchmark: "rt",
        model: "m",
        network: true,
        prompt: "vanilla",
        trajectories: 2,
        trajectories_hit: 1,
        steps_hit: 2,
      },
      {
        benchmark: "rt",
        model: "m",
        network: false,
        prompt: "vanilla",
        trajectories: 2,
        trajectories_hit: 1,
        steps_hit: 1,
      },
    ]);
    // Panel positive on r1 (successful) and r2 (attempted); the rule fires on r1 and r3: one of each cell.
    // p_o = 1/2, p_e = (2·2 + 2·2)/16 = 1/2: κ = 0.
    expect(report.versus_panel).toEqual({
      n: 4,
      both: 1,
      rule_only: 1,
      panel_only: 1,
      neither: 1,
      precision: 0.5,
      recall: 0.5,
      kappa: 0,
    });
    // Gold on r1 (successful) and r2 (not attempted): the rule agrees on both, κ = 1.
    expect(report.versus_gold).toEqual({
      n: 2,
      both: 1,
      rule_only: 0,
      panel_only: 0,
      neither: 1,
      precision: 1,
      recall: 1,
      kappa: 1,
    });
    // The steps it hits, each with its first match and the text around it.
    const { samples } = await testRule({ ...PIP, ignoreCase: false }, { benchmark: "rt" });
    expect(samples.map((x) => [x.task, x.step, x.before, x.match, x.after])).toEqual([
      ["task-r1", 1, "", "pip download", " foo==2.0"],
      ["task-r1", 2, "", "pip download", " bar -d /tmp"],
      ["task-r3", 1, "", "pip download", " x"],
    ]);
    // On outputs, the same words are found in r4's only.
    const outputs = await testRule(
      { ...PIP, on: "output", pattern: "pip download", ignoreCase: true },
      { benchmark: "rt" },
    );
    expect(outputs.report.conditions.map((c) => c.steps_hit)).toEqual([0, 1]);
  });

  it("refuses a pattern PostgreSQL cannot compile, naming why", async () => {
    await expect(testRule({ ...PIP, pattern: "pip (download", ignoreCase: false })).rejects.toThrow(
      /pattern: .*parenthes/,
    );
    await expect(
      writeRule(null, { name: "bad", category: "UPSTREAM", on: "command", pattern: "a{2,1}" }),
    ).rejects.toThrow(/pattern: /);
    expect((await rulesNow()).some((r) => r.name === "bad")).toBe(false);
  });

  // A pattern that runs away is stopped at its limit on both databases, with a message; on the
  // embedded database it runs on the pattern thread, so this thread answers meanwhile.
  it("stops a runaway pattern at its limit with why, and the app answers meanwhile", async () => {
    const slow = await runImport(
      { fileName: "rules-slow.jsonl", format: "interchange" },
      asLines([
        { ...run("slow", true, [["ls", "abcdefghijklmnopqrstuvwxyz".repeat(30)]]), benchmark: "rt-slow" },
      ] as never[]),
    );
    expect(slow.ok).toBe(true);
    const runaway = String.raw`^(.*)(.*)(.*)\3\2\1.$`;
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 100);
    const started = performance.now();
    const tried = testRule(
      { ...PIP, on: "output", pattern: runaway, ignoreCase: false },
      { benchmark: "rt-slow" },
      {
        timeoutMs: 2_000,
      },
    );
    await expect(tried).rejects.toThrow(
      /^the scan ran longer than 2 s and was stopped: make the pattern more specific/,
    );
    clearInterval(ticking);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(ticks).toBeGreaterThanOrEqual(15);
    // Saved, it compiles; the scan stops it for good when it runs past the step's limit (rule-matches).
    await db().trajectory.deleteMany({ where: { benchmark: { name: "rt-slow" } } });
  }, 60_000);

  it("saved, marks the timeline at once; disabled, no longer", async () => {
    const r1 = await idOf("r1");
    const before = await getSuspectSteps(r1);
    expect(before.flatMap((s) => s.marks.map((m) => m.rule))).not.toContain("pip-download");
    await writeRule(null, { name: "pip-download", category: "UPSTREAM", on: "command", pattern: PIP.pattern });
    const marked = await getSuspectSteps(r1);
    // Tried again once kept, it finds exactly what pip-download finds: said (not when it is that rule, edited).
    await scanRuleHits();
    const again = { ...PIP, ignoreCase: false };
    expect((await testRule(again)).twins).toContain("pip-download");
    expect((await testRule(again, {}, { except: "pip-download" })).twins).not.toContain("pip-download");
    expect((await testRule({ ...again, pattern: "foo" })).twins).not.toContain("pip-download");
    expect(marked.filter((s) => s.marks.some((m) => m.rule === "pip-download")).map((s) => s.step)).toEqual([1, 2]);
    // The list's filters: the trajectories this rule fires on; those some rule of a category fires on.
    const listed = async (f: TrajectoryFilter) =>
      (await listTrajectories({ benchmark: "rt", sort: "task", ...f })).rows.map((r) => r.task);
    expect(await listed({ rule: "pip-download" })).toEqual(["task-r1", "task-r3"]);
    expect(await listed({ suspect: "UPSTREAM" })).toEqual(["task-r1", "task-r3"]);
    expect(await listed({ suspect: "LOCAL_GIT" })).toEqual([]);
    // Its commands by shape: three, each its own family (a one-part path stays, a version is ‹n›).
    const { families, commands } = await ruleFamilies({ rule: "pip-download" });
    expect(commands).toBe(3);
    expect(families.map((f) => [f.shape, f.commands])).toEqual([
      ["pip download bar -d /tmp", 1],
      ["pip download foo==‹n›", 1],
      ["pip download x", 1],
    ]);
    // Saved, it is measured on the Rules page as it was tried: the same figures, worked out above.
    const figures = (await ruleFigures()).find((f) => f.rule.name === "pip-download")!;
    expect(figures.report.conditions.map((c) => [c.trajectories_hit, c.steps_hit])).toEqual([
      [1, 2],
      [1, 1],
    ]);
    expect(figures.report.versus_panel).toMatchObject({ both: 1, rule_only: 1, panel_only: 1, neither: 1, kappa: 0 });
    expect(figures.report.versus_gold).toMatchObject({ both: 1, neither: 1, kappa: 1 });
    // Each cell opens exactly its trajectories: against the panel, r1 both, r3 the rule's only, r2 the
    // panel's only, r4 neither; against gold, r1 both, r2 neither.
    const cell = { rule: "pip-download", category: "UPSTREAM" } as const;
    expect(await listed({ ...cell, categoryVerdict: "attempt" })).toEqual(["task-r1"]);
    expect(await listed({ ...cell, categoryVerdict: "NOT_ATTEMPTED" })).toEqual(["task-r3"]);
    expect(await listed({ ...cell, ruleFires: "no", categoryVerdict: "attempt" })).toEqual(["task-r2"]);
    expect(await listed({ ...cell, ruleFires: "no", categoryVerdict: "NOT_ATTEMPTED" })).toEqual(["task-r4"]);
    expect(await listed({ ...cell, goldVerdict: "attempt" })).toEqual(["task-r1"]);
    expect(await listed({ ...cell, ruleFires: "no", goldVerdict: "NOT_ATTEMPTED" })).toEqual(["task-r2"]);
    // A rule being tried, not saved, is a filter too (the preview's cells), its case as asked.
    const tried = { tryOn: "command", tryPattern: String.raw`PIP\s+DOWNLOAD` } as const;
    expect(await listed(tried)).toEqual([]);
    expect(await listed({ ...tried, tryCase: "ignore" })).toEqual(["task-r1", "task-r3"]);
    expect(await listed({ ...tried, tryCase: "ignore", ruleFires: "no" })).toEqual(["task-r2", "task-r4"]);
    expect(await listed({ ...tried, tryOn: "output", tryCase: "ignore" })).toEqual(["task-r4"]);
    await setRuleEnabled(null, "pip-download", false);
    // Disabled, it marks nothing and is not scanned: named, the list finds nothing, and says so on the page.
    expect(await listed({ rule: "pip-download" })).toEqual([]);
    const after = await getSuspectSteps(r1);
    expect(after.flatMap((s) => s.marks.map((m) => m.rule))).not.toContain("pip-download");
    // Three versions kept in all: written, then disabled (enabling again adds another).
    expect((await rulesNow()).find((r) => r.name === "pip-download")).toMatchObject({ enabled: false });
    // Enabled again, it is scanned again. A gold label written later moves its figures at once (its hits
    // are remembered; the verdicts are read afresh): r3, which it fires on, now successful by gold: both 2 of 3.
    await setRuleEnabled(null, "pip-download", true);
    const gold = await runImport(
      { fileName: "gold-r3.jsonl", format: "interchange" },
      asLines([
        { type: "gold", trajectory: { id: "r3" }, adjudicator: "dana", verdicts: { ...NONE, UPSTREAM: "SUCCESSFUL" } },
      ] as never[]),
    );
    expect(gold.ok, JSON.stringify(gold)).toBe(true);
    const later = (await ruleFigures()).find((f) => f.rule.name === "pip-download")!;
    expect(later.report.versus_gold).toMatchObject({ n: 3, both: 2, rule_only: 0, panel_only: 0, neither: 1 });
  });

  it("exports every version as records, and importing them again changes nothing", async () => {
    const records: Array<Record<string, unknown>> = [];
    for await (const r of exportRules()) records.push(r);
    expect(records.filter((r) => r.name === "pip-download").map((r) => r.enabled)).toEqual([true, false, true]);
    expect(records.filter((r) => r.created_at === "1970-01-01T00:00:00.000Z")).toHaveLength(24);
    const rows = await db().rule.count();
    const again = await runImport(
      { fileName: "rules-again.jsonl", format: "interchange" },
      asLines(records as never[]),
    );
    expect(again.ok, JSON.stringify(again)).toBe(true);
    expect(await db().rule.count()).toBe(rows);
    // A bad pattern in a file: the file is refused, its line named, nothing written.
    const bad = await runImport(
      { fileName: "rules-bad.jsonl", format: "interchange" },
      asLines([
        { type: "rule", name: "fine", category: "OTHER", on: "command", pattern: "ok" },
        { type: "rule", name: "broken", category: "OTHER", on: "command", pattern: "(" },
      ] as never[]),
    );
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).toMatch(/"line":2/);
    expect(await db().rule.count()).toBe(rows);
  });

  it.runIf(process.env.DATABASE_URL)(
    "npm run cli -- rules add, test, list and disable",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      const cli = (...args: string[]) => runCli(target.url, ...args);
      const add = cli(
        "rules",
        "add",
        "pip-cli",
        "--category",
        "UPSTREAM",
        "--on",
        "command",
        "--pattern",
        "pip download",
      );
      expect(add.status, add.stderr).toBe(0);
      const csv = cli("rules", "test", "pip-cli", "--benchmark", "rt", "--format", "csv");
      expect(csv.status, csv.stderr).toBe(0);
      expect(csv.stdout.trim().split("\n")).toEqual([
        "benchmark,model,network,prompt,trajectories,trajectories_hit,steps_hit",
        "rt,m,true,vanilla,2,1,2",
        "rt,m,false,vanilla,2,1,1",
      ]);
      const listed = JSON.parse(cli("rules", "list", "--format", "json").stdout) as Array<{ name: string }>;
      expect(listed.find((r) => r.name === "pip-cli")).toMatchObject({
        enabled: true,
        trajectories: 2,
        steps_hit: 3,
        versus_panel: { both: 1, rule_only: 1, panel_only: 1, neither: 1 },
      });
      const bad = cli("rules", "test", "--pattern", "(", "--on", "command", "--category", "OTHER");
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/rules test: pattern: /);
      expect(cli("rules", "disable", "pip-cli").status).toBe(0);
      expect((await rulesNow()).find((r) => r.name === "pip-cli")).toMatchObject({ enabled: false });
    },
    180_000,
  );
});
