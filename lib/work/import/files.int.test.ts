import { spawn } from "node:child_process";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { listImports } from "@/lib/data/import/history";
import { db } from "@/lib/db";
import { connect, currentDb, type DbTarget, openPGlite } from "@/lib/db/connect";
import { prng } from "@/lib/domain/random";
import { demoData, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { applyMigrations } from "@/prisma/migrate-engine";
import { realFixture } from "@/test/fixtures";
import { jsonl, tempFiles } from "@/test/temp-files";
import { conditionFor, expandPaths, importFile, loadManifest, loadResolved } from "./files";

const { dir: tmp, write } = tempFiles("sa-import-");
const condition = {
  benchmark: "swe-bench-verified",
  model: "claude-3.5-sonnet",
  network: true,
  prompt: "vanilla" as const,
  run: 1,
};

async function trajectoryCount() {
  return db().trajectory.count();
}

/** Real agent files of three harnesses, and the resolved reports of their runs in three shapes. */
function realFiles() {
  // The first report that knows a task answers: a results.json with only a `resolved` list knows
  // every task (an unlisted one failed), so it comes last.
  const resolved = loadResolved([
    realFixture("labels/mini-swe-agent-pr816__django__django-14752.report.json"), // keyed by instance id
    realFixture("labels/mini-swe-agent-pr816__deepseek__deepseek-chat.deepseek_chat_dev_rerun.json"), // resolved_ids
    // made by hand from the run's Markdown report: SWE-bench/experiments' `resolved` list
    realFixture("labels/made-by-hand__openhands-pr5306__results.json"),
  ]);
  const folders = [
    realFixture("openhands-completions"),
    realFixture("mini-swe-agent"),
    realFixture("openhands-v0/openhands__multi-swe-bench-example__output.jsonl"),
  ];
  const files = expandPaths(folders, new Set()).filter((f) => !path.basename(f).startsWith("made-by-hand"));
  return { files, resolved };
}

describe("importFile on real agent files", () => {
  it("imports each format with its condition and resolved status, and again without duplicates", async () => {
    const { files, resolved } = realFiles();
    // A folder gives the files it holds that can be imported (not its LICENSE files), sorted.
    expect(files.map((f) => path.basename(f))).toEqual([
      "openhands-pr5306__claude-3.5-sonnet__django__django-11099.json",
      "openhands-pr5306__claude-3.5-sonnet__django__django-11141.json",
      "gruckion__gemini-3-pro__astropy__astropy-13033.traj.json",
      "mini-swe-agent-pr816__deepseek-chat__django__django-14752.traj.json",
      "mini-swe-agent-pr816__deepseek-chat__pylint-dev__astroid-1333.rerun.traj.json",
      "openhands__multi-swe-bench-example__output.jsonl",
    ]);
    for (const round of [1, 2]) {
      for (const file of files) {
        const r = await importFile(file, { condition, resolved, source: "cli", byName: "tester" });
        expect(r.ok, `${file}: ${JSON.stringify(!r.ok && r.errors)}`).toBe(true);
        // The second time, each file finds its trajectories stored exactly so: nothing is written.
        if (r.ok) expect([r.counts.replaced, r.counts.unchanged]).toEqual([0, round === 1 ? 0 : r.counts.trajectories]);
      }
      expect(await trajectoryCount()).toBe(8);
    }
    const rows = await db().trajectory.findMany({
      select: { resolved: true, stepCount: true, sourceFormat: true, task: { select: { key: true } } },
      orderBy: { task: { key: "asc" } },
    });
    // Steps are the agent's messages, counted in the files by hand (Python); resolved as each report says.
    expect(rows.map((r) => [r.task.key, r.sourceFormat, r.stepCount, r.resolved])).toEqual([
      ["astropy__astropy-13033", "mini-swe-agent-1", 32, false], // not in results.json's list
      ["django__django-11099", "openhands-completions", 17, true], // in results.json's resolved list
      ["django__django-11141", "openhands-completions", 9, false], // not in results.json's list
      ["django__django-14752", "mini-swe-agent-1.1", 31, true], // report.json keyed by instance id
      ["ponylang__ponyc-4588", "openhands-v0", 49, false],
      ["ponylang__ponyc-4593", "openhands-v0", 33, false],
      ["ponylang__ponyc-4595", "openhands-v0", 23, false],
      ["pylint-dev__astroid-1333", "mini-swe-agent-1.1", 188, true], // in the run report's resolved_ids
    ]);
    const imports = await db().import.findMany({
      where: { status: "SUCCEEDED" },
      select: { fileSha256: true, fileBytes: true, format: true },
    });
    expect(imports).toHaveLength(12); // six files, twice
    expect(imports.every((i) => i.fileSha256?.length === 64 && i.fileBytes > 0n)).toBe(true);
    // Listed with who ran them, newest first.
    const listed = await listImports();
    expect(listed[0]).toMatchObject({
      fileName: files.at(-1),
      by: "tester",
      source: "cli",
      status: "SUCCEEDED",
      trajectories: 3,
      replaced: 0,
      unchanged: 3,
    });
  });

  it("a manifest gives each folder its condition; options override it", () => {
    const manifest = write(
      "manifest.json",
      JSON.stringify([
        { path: "runs", benchmark: "b", model: "m", network: false, prompt: "principled", run: 2 },
        { path: "runs/net", network: true },
      ]),
    );
    const entries = loadManifest(manifest);
    expect(conditionFor(path.join(tmp, "runs/a.json"), {}, entries).condition).toEqual({
      benchmark: "b",
      model: "m",
      network: false,
      prompt: "principled",
      run: 2,
    });
    expect(conditionFor(path.join(tmp, "runs/net/a.json"), {}, entries).condition).toEqual({ network: true });
    expect(conditionFor(path.join(tmp, "runs/a.json"), { run: 3 }, entries).condition.run).toBe(3);
    expect(() => loadManifest(write("bad-manifest.json", JSON.stringify([{ path: "x", prompt: "sneaky" }])))).toThrow(
      /entry 0\.prompt/,
    );
  });
});

describe("importFile rejections: the whole file, with the line named", () => {
  const cases: Array<[string, string, Array<{ line: number; field?: string | null; message: RegExp }>]> = [
    [
      "truncated line",
      `${jsonl([trajectoryFixture({ id: "ok-1" })])}{"type": "trajectory", "benchmark": "b"`,
      [{ line: 2, message: /^not valid JSON/ }],
    ],
    [
      "wrong types",
      jsonl([trajectoryFixture({ id: "ok-1" }), trajectoryFixture({ id: "w", run: "1", network: "true" })]),
      [
        { line: 2, field: "network", message: /true or false/ },
        { line: 2, field: "run", message: /whole number/ },
      ],
    ],
    [
      "unknown enum",
      jsonl([trajectoryFixture({ id: "e", prompt: "clever" })]),
      [{ line: 1, field: "prompt", message: /vanilla/ }],
    ],
    ["garbage bytes", "\u0000\u0001\u00ff\u00fe garbage\n", [{ line: 1, message: /^not valid JSON/ }]],
    ["a list on a JSONL line", "[1, 2, 3]\n", [{ line: 1, message: /one record/ }]],
    [
      "a vote for a missing trajectory",
      jsonl([trajectoryFixture({ id: "ok-1" }), voteFixture("nope", "j1")]),
      [{ line: 2, field: "trajectory", message: /no trajectory has id "nope"/ }],
    ],
  ];
  it.each(cases)("%s", async (_name, content, expected) => {
    const before = await trajectoryCount();
    const r = await importFile(write(`${_name.replaceAll(" ", "-")}.jsonl`, content), {
      condition: {},
      resolved: null,
      source: "cli",
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(expected.length);
    expected.forEach((e, i) => {
      expect(r.errors[i]!.line).toBe(e.line);
      if (e.field !== undefined) expect(r.errors[i]!.field).toBe(e.field);
      expect(r.errors[i]!.message).toMatch(e.message);
    });
    expect(await trajectoryCount()).toBe(before);
  });

  it("a top-level JSON array of numbers is an unknown format that lists the known ones", async () => {
    const r = await importFile(write("numbers.json", "[1, 2, 3]"), { condition: {}, resolved: null, source: "cli" });
    expect(r).toMatchObject({
      ok: false,
      errors: [
        {
          line: 1,
          message: expect.stringMatching(
            new RegExp(
              "unknown format: a list .*; expected the app's own records .* mini-swe-agent .* SWE-agent " +
                ".* OpenHands .* Inspect AI .* ATIF .* Moatless",
            ),
          ),
        },
      ],
    });
  });

  it("a JSON array of records names the bad record by its index", async () => {
    const r = await importFile(
      write(
        "array.json",
        JSON.stringify([trajectoryFixture({ id: "arr-1" }), { judge: "j", trajectory: { id: "arr-1" } }]),
      ),
      { condition: {}, resolved: null, source: "cli" },
    );
    expect(r).toMatchObject({ ok: false, unit: "record", errors: [{ line: 2, field: "verdicts" }] });
  });

  it("an agent file without its condition names the options to give", async () => {
    const r = await importFile(realFixture("openhands-v0/openhands__tests-runtime-trajs__basic_gui_mode.json"), {
      condition: { benchmark: "b" },
      resolved: null,
      source: "cli",
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.field)).toEqual(["model", "network", "prompt", "run", "task"]);
    expect(r.errors[0]!.message).toBe("openhands-events files do not say the model: give --model M (or a manifest)");
    // From the Import page, in the form's own words; through the API, its parameters'.
    const asked = async (source: "web" | "api") => {
      const file = realFixture("openhands-v0/openhands__tests-runtime-trajs__basic_gui_mode.json");
      const out = await importFile(file, { condition: { benchmark: "b" }, resolved: null, source });
      return out.ok ? [] : out.errors.map((e) => e.message);
    };
    const page = await asked("web");
    expect(page[0]).toBe("openhands-events files do not say the model: fill in the Model field");
    expect(page.at(-1)).toBe(
      "the file does not name its task instance: fill in the Task id field (or name the file after the instance)",
    );
    expect((await asked("api"))[2]).toBe("openhands-events files do not say the prompt: give the prompt parameter");
  });

  it("reads gzip, and untrusted text of many megabytes on one line", async () => {
    const huge = `<script>alert(1)</script>${"x".repeat(12 * 1024 * 1024)}\u001b[0m`;
    const content = jsonl([
      trajectoryFixture({
        id: "gz-1",
        task: { id: "gz" },
        turns: [
          { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: "cat big" }] },
          { role: "tool", tool_call_id: "c", content: huge },
        ],
      }),
    ]);
    const r = await importFile(write("big.jsonl.gz", zlib.gzipSync(content)), {
      condition: {},
      resolved: null,
      source: "cli",
    });
    expect(r.ok).toBe(true);
    const [row] = await db().$queryRaw<
      Array<{ n: number }>
    >`SELECT length(content)::int AS n FROM message m JOIN trajectory t ON t.id = m."trajectoryId" WHERE
      t."externalId" = 'gz-1' AND m.role = 'tool'`;
    expect(row!.n).toBe(huge.length);
  });
});

// Kill points in the write, drawn from a seed (KILL_SEED overrides it; the test names show the delays).
const KILL_SEED = Number(process.env.KILL_SEED ?? 20261130);
const killDelays = (() => {
  const r = prng(KILL_SEED);
  return [0, 1, 2].map((i) => Math.round(i * 250 + r() * 250));
})();

/** The database the killed command uses: this test file's PostgreSQL one, or a PGlite folder migrated beforehand. */
async function childDatabase(
  target: DbTarget,
  delay: number,
): Promise<{ env: NodeJS.ProcessEnv; pgliteDir: string | null }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (target.kind === "postgres") return { env: { ...env, DATABASE_URL: target.url }, pgliteDir: null };
  delete env.DATABASE_URL;
  const pgliteDir = path.join(tmp, `killed-pglite-${delay}`);
  // Migrated beforehand, so the child spends its time importing.
  const engine = openPGlite(pgliteDir);
  await applyMigrations({ kind: "pglite", dir: pgliteDir }, engine);
  await engine.close();
  return { env: { ...env, PGLITE_DIR: pgliteDir }, pgliteDir };
}

/** Until the command has begun writing: on PostgreSQL its import row is RUNNING; on PGlite it printed progress. */
async function writing(target: DbTarget, file: string, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`import never started: ${stderr()}`);
    const started =
      target.kind === "postgres"
        ? (await db().import.count({ where: { status: "RUNNING", fileName: file } })) > 0
        : / records, /.test(stderr());
    if (started) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`a killed import (seed ${KILL_SEED})`, () => {
  it.each(killDelays)(
    "killed %i ms after it began writing, leaves the database as it was before the file, and usable",
    async (delay) => {
      // A file large enough to be mid-write when killed: the demo study, repeated over many runs.
      const demo = demoData({ tasksPerBenchmark: 5 });
      // Twenty copies: on PGlite ten were once written whole before the latest kill point.
      const records = Array.from({ length: 20 }, (_, i) => i + 1).flatMap((k) =>
        demo.trajectories.map((t) => ({ ...t, id: `${t.id}-k${k}`, run: (t.run as number) + 3 * k })),
      );
      const file = write(`killed-${delay}.jsonl`, jsonl(records));
      const target = currentDb().target;
      const { env, pgliteDir } = await childDatabase(target, delay);
      const before = target.kind === "postgres" ? await trajectoryCount() : 0;
      const documentsBefore =
        target.kind === "postgres"
          ? await db().$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM trajectory_search`
          : null;
      const child = spawn(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "scripts/cli.ts", "import", file],
        { env, stdio: ["ignore", "ignore", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += String(d);
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on("exit", (code, signal) => resolve({ code, signal })),
      );

      // Kill once the import has begun writing.
      await writing(target, file, () => stderr);
      await new Promise((r) => setTimeout(r, delay));
      child.kill("SIGKILL");
      expect((await exited).signal).toBe("SIGKILL");

      if (target.kind === "postgres") {
        expect(await trajectoryCount()).toBe(before);
        // Its search documents too, though on PostgreSQL they are written on a second connection.
        expect(await db().$queryRaw`SELECT count(*)::int AS n FROM trajectory_search`).toEqual(documentsBefore);
        expect(await db().import.findFirst({ where: { fileName: file }, select: { status: true } })).toEqual({
          status: "RUNNING",
        });
      } else {
        // The folder opens again (the dead process's lock is taken over) and holds nothing of the file.
        const handle = connect({ kind: "pglite", dir: pgliteDir }, openPGlite(pgliteDir));
        try {
          expect(await handle.prisma.trajectory.count()).toBe(0);
          expect(await handle.prisma.import.findMany({ select: { status: true } })).toEqual([{ status: "RUNNING" }]);
        } finally {
          await handle.close();
        }
      }
    },
  );
});
