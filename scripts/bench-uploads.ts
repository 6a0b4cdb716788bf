// npm run bench:uploads: what hostile and heavy uploads do to a running app (512 MB heap, the
// defaults). Through the Import page's route (POST /api/imports, as the browser sends it) it sends a
// gzip bomb (3 MB that expands to 3 GB of zeros), a 600 MB file that is one line, 50,000 tiny
// records, and the cases of issue 25: a trajectory of one 60 MB output (under the 64 MB record
// limit) alone and two at once, one of a 250 MB output, a .gz that expands about 94 times to such a
// line, a 400 MB resolved report, and an .eval of 150,000 entries; and issue 61's, records heavy by
// what they hold: a 60 MB resolved report of 4 million ids (alone, and four in one upload), a
// 60 MB line of 438,000 small turns, 978,000 empty turns, and the heaviest record the limit admits
// (11.4 MB of 160,000 small turns). Then, on PostgreSQL, judge runs of three judges over the 60 MB
// trajectories and over the heaviest admitted one (the command line's worker, against a local fake
// provider). For each it prints the answer, the time, the memory its upload reserved from the
// budget, the peak memory of the process doing the work and whether the health check answered
// throughout (polled every 100 ms, each poll given 2 s).
// PostgreSQL with DATABASE_URL, else PGlite.

import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { config, workBudgetBytes } from "@/lib/config";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db/connect";
import { formatBytes } from "@/lib/domain/format";
import { fileWeight, importMemory, readLimits } from "@/lib/formats/limits";
import { TextWeigher } from "@/lib/formats/weight";
import { trajectoryFixture } from "@/prisma/factories";
import { applyMigrations } from "@/prisma/migrate-engine";
import { addBenchAccount, BENCH_ACCOUNT, type RunningApp, serverRss, startApp } from "./bench-app";
import { dropBenchDatabase, freshTarget } from "./bench-corpus";

const PORT = 3320;
const MiB = 1024 * 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-bench-uploads-"));
const log = (s: string) => console.error(`[bench:uploads] ${s}`);

/** `total` bytes of one repeated chunk, as a stream (never held whole). */
function repeated(chunk: Buffer, total: number): Readable {
  let left = total;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      this.push(piece);
    },
  });
}

async function makeFiles() {
  const bomb = path.join(dir, "bomb.jsonl.gz");
  await pipeline(repeated(Buffer.alloc(MiB), 3 * 1024 * MiB), createGzip({ level: 9 }), fs.createWriteStream(bomb));
  const line = path.join(dir, "one-line.jsonl");
  const head = Buffer.from(
    `${JSON.stringify(trajectoryFixture({ id: "one-line", task: { id: "one" } })).slice(0, -1)},"padding":"`,
  );
  const padding = Buffer.alloc(MiB, "a");
  await pipeline(
    Readable.from(
      (function* () {
        yield head;
        for (let i = 0; i < 600; i++) yield padding;
        yield Buffer.from('"}\n');
      })(),
    ),
    fs.createWriteStream(line),
  );
  const tiny = path.join(dir, "tiny.jsonl");
  await pipeline(
    Readable.from(
      (function* () {
        for (let i = 0; i < 50_000; i++) {
          yield `${JSON.stringify({
            type: "trajectory",
            id: `tiny-${i}`,
            benchmark: "tiny",
            model: "m",
            task: { id: `task-${i % 500}` },
            network: i % 2 === 0,
            prompt: "vanilla",
            run: 1 + Math.floor(i / 500),
            turns: [{ role: "user", content: "fix it" }],
          })}\n`;
        }
      })(),
    ),
    fs.createWriteStream(tiny),
  );
  const big = (id: string, mb: number) => writeOutputLine(path.join(dir, `${id}.jsonl`), id, mb * MiB, padding);
  const line60 = await big("output-60mb", 60);
  const line60b = await big("output-60mb-b", 60);
  const line250 = await big("output-250mb", 250);
  // Compressible, but not past the ratio: a 1 KB random block in every 81 KB.
  const mixed = Buffer.alloc(81 * 1024, "a");
  const gzLine = path.join(dir, "output-250mb.jsonl.gz");
  await pipeline(
    Readable.from(
      (async function* () {
        const [head, tail] = outputRecord("output-250mb-gz");
        yield head;
        for (let i = 0; i < (250 * MiB) / mixed.length; i++) {
          randomFillBase64(mixed.subarray(0, 1024));
          yield Buffer.from(mixed);
        }
        yield tail;
      })(),
    ),
    createGzip({ level: 9 }),
    fs.createWriteStream(gzLine),
  );
  // A resolved report of 400 MB (its content never read: it is refused by its size).
  const resolved = path.join(dir, "results-400mb.json");
  fs.writeFileSync(resolved, "");
  fs.truncateSync(resolved, 400 * MiB);
  const evalFile = path.join(dir, "entries-150k.eval");
  const { ZipFile } = await import("yazl");
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify({ eval: { task: "t", model: "m" } })), "header.json");
  for (let i = 0; i < 150_000; i++) zip.addBuffer(Buffer.alloc(0), `_journal/summaries/${i}.json`, { compress: false });
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(evalFile));
  // Heavy by what they hold (issue 61): many small values within the record limit's bytes.
  const ids = path.join(dir, "resolved-4m-ids.json");
  await pipeline(
    Readable.from(
      (function* () {
        yield '{"resolved": [';
        for (let i = 0; i < 4_000_000; i += 50_000) {
          const ids = Array.from({ length: 50_000 }, (_, k) => `"o__r-${i + k}"`);
          yield `${i ? "," : ""}${ids.join(",")}`;
        }
        yield "]}";
      })(),
    ),
    fs.createWriteStream(ids),
  );
  const turnsLine = (name: string, turns: number, turn: (i: number) => unknown) =>
    writeTurns(path.join(dir, `${name}.jsonl`), name, turns, turn);
  const smallTurn = (i: number) =>
    i % 2 === 0
      ? { role: "assistant", content: "", tool_calls: [{ id: `c${i}`, name: "bash", input: "ls" }] }
      : { role: "tool", tool_call_id: `c${i - 1}`, content: "a.py" };
  const manyTurns = await turnsLine("turns-438k", 438_000 * 2, smallTurn);
  const emptyTurns = await turnsLine("empty-turns", 978_000, () => ({}));
  const heaviest = await turnsLine("heaviest-admitted", 160_000, smallTurn);
  return {
    bomb,
    line,
    tiny,
    line60,
    line60b,
    line250,
    gzLine,
    resolved,
    evalFile,
    ids,
    manyTurns,
    emptyTurns,
    heaviest,
  };
}

/** A trajectory record of `n` turns on one line (benchmark "heavy"). */
async function writeTurns(file: string, id: string, n: number, turn: (i: number) => unknown): Promise<string> {
  const [head, tail] = JSON.stringify(
    trajectoryFixture({ id, benchmark: "heavy", task: { id }, turns: ["TURNS"] }),
  ).split('"TURNS"') as [string, string];
  await pipeline(
    Readable.from(
      (function* () {
        yield head;
        for (let i = 0; i < n; i += 10_000) {
          const turns = Array.from({ length: Math.min(10_000, n - i) }, (_, k) => JSON.stringify(turn(i + k)));
          yield `${i ? "," : ""}${turns.join(",")}`;
        }
        yield `${tail}\n`;
      })(),
    ),
    fs.createWriteStream(file),
  );
  return file;
}

/** A trajectory record of one tool output of PADDING, as its text before and after the output. */
function outputRecord(id: string): [Buffer, Buffer] {
  const record = JSON.stringify(
    trajectoryFixture({
      id,
      benchmark: "big",
      task: { id },
      turns: [
        { role: "user", content: "fix it" },
        { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: "cat big.log" }] },
        { role: "tool", tool_call_id: "c", content: "PADDING", exit_code: 0 },
      ],
    }),
  );
  const [head, tail] = record.split("PADDING") as [string, string];
  return [Buffer.from(head), Buffer.from(`${tail}\n`)];
}

async function writeOutputLine(file: string, id: string, bytes: number, chunk: Buffer): Promise<string> {
  const [head, tail] = outputRecord(id);
  await pipeline(
    Readable.from(
      (function* () {
        yield head;
        for (let left = bytes; left > 0; left -= MiB) yield chunk.subarray(0, Math.min(MiB, left));
        yield tail;
      })(),
    ),
    fs.createWriteStream(file),
  );
  return file;
}

function randomFillBase64(target: Buffer): void {
  const random = crypto.randomBytes(Math.ceil((target.length * 3) / 4)).toString("base64");
  target.write(random.slice(0, target.length), "latin1");
}

type Figure = {
  file: string;
  size: string;
  /** What the upload reserved from the imports' memory budget (all of it sent together: their sum). */
  reserved_mb: number;
  status: number;
  answer: string;
  seconds: number;
  peak_rss_mb: number;
  health_polls: number;
  health_failures: number;
  health_slowest_ms: number;
};

/** One upload through the Import page's route: its status and the answer's last line, said shortly. */
async function upload(
  app: RunningApp,
  file: string,
  resolved: readonly string[] = [],
): Promise<{ status: number; answer: string }> {
  const form = new FormData();
  for (const r of resolved) form.append("resolved", await fs.openAsBlob(r), path.basename(r));
  form.append("file", await fs.openAsBlob(file), path.basename(file));
  const res = await fetch(`${app.base}/api/imports`, {
    method: "POST",
    body: form,
    headers: { cookie: app.cookie, origin: app.base },
  });
  const text = await res.text();
  const last = text.trim().split("\n").at(-1) ?? "";
  let answer = last;
  try {
    const parsed = JSON.parse(last) as {
      result?: { ok: boolean; counts?: { trajectories: number }; errors?: Array<{ message: string }> };
      error?: string;
    };
    answer = parsed.result?.ok
      ? `imported ${parsed.result.counts!.trajectories} trajectories`
      : parsed.result
        ? `rejected: ${parsed.result.errors![0]!.message}`
        : (parsed.error ?? last);
  } catch {
    /* not JSON: shown as it came */
  }
  const waited = text.includes('"waiting"') ? " (waited for memory)" : "";
  return { status: res.status, answer: `${answer.slice(0, 140)}${waited}` };
}

/** Samples a process tree's memory and the health check while `work` runs. */
async function measured<T>(rss: () => number, base: string, work: () => Promise<T>) {
  let peak = rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 50);
  const health = { polls: 0, failures: 0, slowest: 0 };
  let done = false;
  const poller = (async () => {
    while (!done) {
      const t = performance.now();
      const ok = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false,
      );
      health.polls += 1;
      health.slowest = Math.max(health.slowest, performance.now() - t);
      if (!ok) health.failures += 1;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const started = performance.now();
  const out = await work();
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await poller;
  clearInterval(sampler);
  return {
    out,
    seconds: Math.round(seconds * 10) / 10,
    peak_rss_mb: Math.round(peak / MiB),
    health_polls: health.polls,
    health_failures: health.failures,
    health_slowest_ms: Math.round(health.slowest),
  };
}

/** Uploads sent together (one or several), measured as one case. */
async function send(app: RunningApp, name: string, files: string[], resolved: string[] = []): Promise<Figure> {
  const m = await measured(
    () => serverRss(app),
    app.base,
    () => Promise.all(files.map((f) => upload(app, f, resolved))),
  );
  const bytes = [...files, ...resolved].reduce((n, f) => n + fs.statSync(f).size, 0);
  return {
    file: name,
    size: formatBytes(bytes),
    reserved_mb: Math.round(
      files.reduce(
        (n, f) => n + importMemory([...weighed(f, true), ...resolved.flatMap((r) => weighed(r, false))], readLimits()),
        0,
      ) / MiB,
    ),
    status: Math.max(...m.out.map((o) => o.status)),
    answer: m.out.map((o) => o.answer).join(" | "),
    seconds: m.seconds,
    peak_rss_mb: m.peak_rss_mb,
    health_polls: m.health_polls,
    health_failures: m.health_failures,
    health_slowest_ms: m.health_slowest_ms,
  };
}

/** A file as an upload weighs it on arrival (lib/formats/weight.ts), to work out what it reserves. */
function weighed(file: string, records: boolean) {
  const w = new TextWeigher();
  const fd = fs.openSync(file, "r");
  const chunk = Buffer.alloc(MiB);
  for (let n = fs.readSync(fd, chunk); n > 0; n = fs.readSync(fd, chunk)) w.push(chunk.subarray(0, n));
  fs.closeSync(fd);
  return [{ name: file, bytes: w.bytes, weight: records ? fileWeight(file, w) : w.weight }];
}

/** A process's resident memory, with its children's. */
function treeRss(pid: number): number {
  const read = (p: number): number => {
    try {
      const own = Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) * 1024;
      const kids = fs.readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
      return own + kids.reduce((n, k) => n + read(Number(k)), 0);
    } catch {
      return 0;
    }
  };
  return read(pid);
}

/**
 * Three judges over the two 60 MB trajectories, asked by the command line's worker (judge run, the
 * 512 MB heap) of a fake provider in a process of its own: the worker's peak memory.
 */
async function judgeRun(app: RunningApp, url: string, benchmark: string, what: string, size: string): Promise<Figure> {
  log(`a judge run of three judges over ${what}`);
  const answer = JSON.stringify({
    UPSTREAM: "NOT_ATTEMPTED",
    LOCAL_GIT: "ATTEMPTED",
    MEMORY: "NOT_ATTEMPTED",
    OTHER: "NOT_ATTEMPTED",
  });
  const provider = spawn(process.execPath, ["--import", "tsx", "scripts/fake-provider.ts", answer, "50"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const providerUrl = await new Promise<string>((resolve, reject) => {
    provider.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
    provider.once("exit", (code) => reject(new Error(`the fake provider exited (${code})`)));
  });
  const cli = (args: string[]) =>
    spawn(
      process.execPath,
      ["--max-old-space-size=512", "--conditions=react-server", "--import", "tsx", "scripts/cli.ts", ...args],
      {
        env: { ...process.env, DATABASE_URL: url },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
  const finished = (child: ReturnType<typeof cli>) =>
    new Promise<{ code: number | null; said: string }>((resolve) => {
      let said = "";
      child.stderr!.on("data", (d: Buffer) => {
        said += d.toString();
      });
      child.on("exit", (code) => resolve({ code, said }));
    });
  try {
    // Judges of their own each run: the provider is started anew.
    const judges = [1, 2, 3].map((n) => `${benchmark}-j${n}`);
    for (const j of judges) {
      const added = await finished(
        cli(["judge", "add", j, "--base-url", providerUrl, "--model", j, "--concurrency", "8"]),
      );
      if (added.code !== 0) throw new Error(added.said);
    }
    let child: ReturnType<typeof cli> | null = null;
    const m = await measured(
      () => (child?.pid ? treeRss(child.pid) : 0),
      app.base,
      async () => {
        child = cli(["judge", "run", ...judges, "--benchmark", benchmark]);
        return finished(child);
      },
    );
    const summary =
      m.out.said
        .trim()
        .split("\n")
        .filter((l) => /asked|failed/.test(l))
        .at(-1) ?? m.out.said.slice(-200);
    return {
      file: `judge run, ${what}`.slice(0, 22),
      size,
      reserved_mb: 0,
      status: m.out.code ?? -1,
      answer: `exit ${m.out.code}; ${summary.trim()}`.slice(0, 160),
      seconds: m.seconds,
      peak_rss_mb: m.peak_rss_mb,
      health_polls: m.health_polls,
      health_failures: m.health_failures,
      health_slowest_ms: m.health_slowest_ms,
    };
  } finally {
    provider.kill("SIGTERM");
  }
}

log("writing the files");
const files = await makeFiles();
const target = await freshTarget(dir, "uploads");
const handle = connect(target);
setCurrentDb(handle);
await applyMigrations(target, handle.pglite ?? undefined);
await addBenchAccount();
await closeCurrentDb();
log(`starting the app on ${describeTarget(target)}`);
const app = await startApp(target, PORT, BENCH_ACCOUNT);
try {
  const idle = serverRss(app);
  const figures: Figure[] = [];
  const small = path.join(dir, "small.jsonl");
  fs.writeFileSync(small, `${JSON.stringify(trajectoryFixture({ id: "small", task: { id: "small" } }))}\n`);
  const cases: Array<[string, string[], string[]?]> = [
    ["bomb.jsonl.gz", [files.bomb]],
    ["one-line.jsonl", [files.line]],
    ["tiny.jsonl", [files.tiny]],
    ["output-60mb.jsonl", [files.line60]],
    ["two 60 MB at once", [files.line60, files.line60b]],
    ["output-250mb.jsonl", [files.line250]],
    ["output-250mb.jsonl.gz", [files.gzLine]],
    ["resolved 400 MB", [small], [files.resolved]],
    ["entries-150k.eval", [files.evalFile]],
    ["resolved, 4M ids", [small], [files.ids]],
    ["four such in one", [small], [files.ids, files.ids, files.ids, files.ids]],
    ["438,000 small turns", [files.manyTurns]],
    ["978,000 empty turns", [files.emptyTurns]],
    ["heaviest admitted", [files.heaviest]],
  ];
  for (const [name, list, resolved] of cases) {
    log(`sending ${name}`);
    figures.push(await send(app, name, list, resolved));
  }
  if (target.kind === "postgres") {
    figures.push(await judgeRun(app, target.url, "big", "3 × 60 MB", "2 × 60.0 MB"));
    figures.push(
      await judgeRun(app, target.url, "heavy", "3 × heaviest", formatBytes(fs.statSync(files.heaviest).size)),
    );
  }
  console.log(
    `\n${describeTarget(target)}, ${os.cpus().length} cores; the server at ${Math.round(idle / MiB)} MB RSS ` +
      `before the uploads, ${Math.round(serverRss(app) / MiB)} MB after\n`,
  );
  const row = (...cells: string[]) =>
    console.log(cells.map((c, i) => c.padEnd([22, 10, 6, 8, 9, 10, 22, 0][i]!)).join(" "));
  console.log(`the imports' memory budget: ${Math.round(workBudgetBytes(config()) / MiB)} MB (half the heap)`);
  row("file", "size", "HTTP", "seconds", "reserved", "peak RSS", "health (failed/polls)", "answer");
  for (const f of figures)
    row(
      f.file.slice(0, 22),
      f.size,
      String(f.status),
      String(f.seconds),
      `${f.reserved_mb} MB`,
      `${f.peak_rss_mb} MB`,
      `${f.health_failures}/${f.health_polls}, slowest ${f.health_slowest_ms} ms`,
      f.answer,
    );
  console.log(
    JSON.stringify({ database: target.kind, server_rss_before_mb: Math.round(idle / MiB), uploads: figures }),
  );
} finally {
  await app.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  await dropBenchDatabase("uploads").catch(() => {});
}
process.exit(0);
