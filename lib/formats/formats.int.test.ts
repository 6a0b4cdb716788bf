// Importing the formats of the issue "every agent's log" from real files, end to end into the
// database: Inspect AI logs (.eval and .json), Harbor ATIF, Moatless; warnings kept with the import
// and --strict; an option that would merge a file's trajectories refused.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listImports } from "@/lib/data/import/history";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { importFile } from "@/lib/work/import/files";
import { realFixture } from "@/test/fixtures";
import { tempFiles } from "@/test/temp-files";

const { dir: tmp } = tempFiles("sa-formats-");
const condition = { benchmark: "swe-bench-verified", network: false, prompt: "vanilla" as const };
const EVAL = realFixture("inspect/metr-inspect-action__small.eval");

/** Imports a file that must land, and its trajectories as stored. */
async function importedRows(file: string, cond: Parameters<typeof importFile>[1]["condition"]) {
  const r = await importFile(file, { condition: cond, resolved: null, source: "cli" });
  if (!r.ok) throw new Error(`${file} rejected: ${JSON.stringify(r.errors)}`);
  return stored(r.importId);
}

async function stored(importId: number) {
  return db().trajectory.findMany({
    where: { importId },
    select: {
      run: true,
      resolved: true,
      stepCount: true,
      model: { select: { name: true } },
      task: { select: { key: true } },
    },
    orderBy: { run: "asc" },
  });
}

describe("Inspect AI logs", () => {
  it(".eval: a trajectory a sample epoch; run = epoch, model from the header, resolved from the score", async () => {
    const r = await importFile(EVAL, { condition, resolved: null, source: "cli" });
    expect(r.ok, JSON.stringify(!r.ok && r.errors)).toBe(true);
    if (!r.ok) return;
    expect(r.counts.trajectories).toBe(6);
    const rows = await stored(r.importId);
    expect(rows.map((t) => t.run)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(rows.map((t) => t.model.name))).toEqual(new Set(["anthropic/claude-opus-4-1-20250805"]));
    expect(new Set(rows.map((t) => t.task.key))).toEqual(new Set(["default"]));
    expect(rows.every((t) => t.resolved === true)).toBe(true); // score_metr_task is 1 in every epoch
    // Assistant turns per epoch 13, 12, 12, 13, 14, 12 (the last of each answers without a call).
    expect(rows.map((t) => t.stepCount)).toEqual([13, 12, 12, 13, 14, 12]);
    expect({ turns: r.assistantTurns, calls: r.toolCalls, warnings: r.warningCount }).toEqual({
      turns: 76,
      calls: 70,
      warnings: 0,
    });
  });

  it("--run on a log of several epochs would merge them: refused, saying why", async () => {
    const r = await importFile(EVAL, { condition: { ...condition, run: 1 }, resolved: null, source: "cli" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errorCount).toBe(5);
    expect(r.errors[0]).toEqual({
      line: 2,
      field: "run",
      message:
        "--run 1 replaces the run the file gives (2 here, 1 at record 1): this trajectory and the one at record 1 " +
        "would become one, the second replacing the first. Leave --run out: the file names each trajectory's own",
    });
  });

  it("the older .json log is streamed sample by sample", async () => {
    const rows = await importedRows(
      realFixture("inspect/inspect_ai__2025-05-12T20-27-36-04-00_browser.json"),
      condition,
    );
    expect(rows).toEqual([
      { run: 1, resolved: true, stepCount: 5, model: { name: "openai/gpt-4o-mini" }, task: { key: "1" } },
    ]);
  });

  it("a corrupt archive is an error with the reason, nothing written", async () => {
    const bad = path.join(tmp, "cut.eval");
    fs.writeFileSync(bad, fs.readFileSync(EVAL).subarray(0, 200_000));
    const r = await importFile(bad, { condition, resolved: null, source: "cli" });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors[0]!.message).toMatch(
        /^this Inspect \.eval file could not be read as a zip archive: End of central directory record signature/,
      );
  });

  it("an archive's entry that would expand past the ratio is named a decompression bomb", async () => {
    const { ZipFile } = await import("yazl");
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify({ eval: { task: "t", model: "m" } })), "header.json");
    zip.addBuffer(Buffer.alloc(5_000_000, 0x20), "samples/x_epoch_1.json");
    zip.end();
    const bomb = path.join(tmp, "bomb.eval");
    await new Promise((resolve) => zip.outputStream.pipe(fs.createWriteStream(bomb)).on("close", () => resolve(null)));
    const r = await importFile(bomb, { condition, resolved: null, source: "cli" });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors[0]!.message).toMatch(/^samples\/x_epoch_1\.json would expand \d+ times \(a decompression bomb/);
  });
});

describe("ATIF and Moatless", () => {
  it("a Harbor trial's trajectory.json takes its task from the trial folder and its model from the agent", async () => {
    const trial = path.join(tmp, "job", "django__django-11099__Xk3pQ9a", "agent");
    fs.mkdirSync(trial, { recursive: true });
    const doc = JSON.parse(
      fs.readFileSync(realFixture("atif/harbor-golden__terminus_2__hello-world-timeout.trajectory.json"), "utf8"),
    );
    doc.agent.model_name = "gpt-5";
    fs.writeFileSync(path.join(trial, "trajectory.json"), JSON.stringify(doc));
    const rows = await importedRows(path.join(trial, "trajectory.json"), { ...condition, run: 1 });
    expect(rows).toEqual([
      { run: 1, resolved: null, stepCount: 3, model: { name: "gpt-5" }, task: { key: "django__django-11099" } },
    ]);
  });

  it("Moatless imports its five steps", async () => {
    const file = realFixture("moatless/moatless__claude-3.5-sonnet__scikit-learn__scikit-learn-13439.trajectory.json");
    const r = await importFile(file, { condition: { ...condition, run: 1 }, resolved: null, source: "cli" });
    expect(r.ok, JSON.stringify(!r.ok && r.errors)).toBe(true);
    if (r.ok) expect({ calls: r.toolCalls, turns: r.assistantTurns }).toEqual({ calls: 5, turns: 5 });
  });
});

describe("no silent loss", () => {
  const GRUCKION = realFixture("mini-swe-agent/gruckion__gemini-3-pro__astropy__astropy-13033.traj.json");

  it("warnings land with the import and are listed; --strict rejects the file", async () => {
    const r = await importFile(GRUCKION, {
      condition: { ...condition, model: "gemini-3-pro", run: 7 },
      resolved: null,
      source: "cli",
    });
    expect(r.ok).toBe(true);
    expect(r.warnings).toEqual([
      {
        line: 1,
        trajectory: "astropy__astropy-13033 (run 7)",
        step: 27,
        message: "the assistant's text holds a fenced code block (```python) but no tool call was read from it",
      },
    ]);
    const listed = (await listImports()).find((i) => i.id === r.importId)!;
    expect(listed).toMatchObject({ assistantTurns: 32, toolCalls: 31, warningCount: 1, warnings: r.warnings });

    const strict = await importFile(GRUCKION, {
      condition: { ...condition, model: "gemini-3-pro", run: 8 },
      resolved: null,
      source: "cli",
      strict: true,
    });
    expect(strict.ok).toBe(false);
    if (strict.ok) return;
    expect(strict.errors).toEqual([
      {
        line: 1,
        field: null,
        message:
          "--strict: astropy__astropy-13033 (run 8), step 27: the assistant's text holds a fenced code block " +
          "(```python) but no tool call was read from it",
      },
    ]);
    expect(await db().trajectory.count({ where: { run: 8, task: { key: "astropy__astropy-13033" } } })).toBe(0);
  });

  it("--task on a file of several instances would merge them: refused, saying why", async () => {
    const file = realFixture("openhands-v0/openhands__multi-swe-bench-example__output.jsonl");
    const r = await importFile(file, {
      condition: { ...condition, model: "m", run: 1, task: "one" },
      resolved: null,
      source: "cli",
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [2, "task"],
      [3, "task"],
    ]);
    expect(r.errors[0]!.message).toBe(
      "--task one replaces the task the file gives (ponylang__ponyc-4593 here, ponylang__ponyc-4595 at line 1): this " +
        "trajectory and the one at line 1 would become one, the second replacing the first. Leave --task out: the " +
        "file names each trajectory's own",
    );
  });
});

describe.runIf(process.env.DATABASE_URL)("the command line says what it read and warned of", () => {
  const cli = (...args: string[]) => {
    const target = currentDb().target;
    if (target.kind !== "postgres") throw new Error("PostgreSQL only");
    const GRUCKION = realFixture("mini-swe-agent/gruckion__gemini-3-pro__astropy__astropy-13033.traj.json");
    const condition = ["--benchmark", "swe-bench-verified", "--model", "gemini-3-pro", "--network", "off"];
    return spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/cli.ts", "import", ...condition, ...args, GRUCKION],
      { env: { ...process.env, DATABASE_URL: target.url }, encoding: "utf8" },
    );
  };

  it("warnings are printed with file, record, trajectory and step; the file lands", () => {
    const r = cli("--prompt", "vanilla", "--run", "21");
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("; read 32 assistant turns, 31 tool calls, 1 warning(s)");
    expect(r.stderr).toContain(
      "  warnings: 1 in 1 file(s) (they do not stop an import; with --strict they are errors)",
    );
    expect(r.stderr).toMatch(
      new RegExp(
        "gruckion__gemini-3-pro__astropy__astropy-13033\\.traj\\.json:record 1: warning: " +
          "astropy__astropy-13033 \\(run 21\\), step 27: the assistant's text holds a fenced code block",
      ),
    );
  });

  it("--strict rejects the file and exits 1", () => {
    const r = cli("--prompt", "vanilla", "--run", "22", "--strict");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("REJECTED: 1 bad record(s), nothing imported");
    expect(r.stderr).toMatch(/record 1: --strict: astropy__astropy-13033 \(run 22\), step 27: /);
  });
});
