// npm run bench:uploads: what hostile and heavy uploads do to a running app. Through the Import
// page's route (POST /api/imports, as the browser sends it) it sends a gzip bomb (3 MB that expands
// to 3 GB of zeros), a 600 MB file that is one line, and 50,000 tiny records; for each it prints the
// answer and how long it took, the server's peak memory, and whether the health check answered
// throughout (polled every 100 ms, each poll given 2 s). PostgreSQL with DATABASE_URL, else PGlite.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createGzip } from "node:zlib";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db-connect";
import { applyMigrations } from "@/prisma/migrate-engine";
import { formatBytes } from "@/lib/format";
import { trajectoryFixture } from "@/prisma/factories";
import { addBenchAccount, BENCH_ACCOUNT, serverRss, startApp, type RunningApp } from "./bench-app";
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
  return { bomb, line, tiny };
}

type Figure = {
  file: string;
  size: string;
  status: number;
  answer: string;
  seconds: number;
  peak_rss_mb: number;
  health_polls: number;
  health_failures: number;
  health_slowest_ms: number;
};

async function send(app: RunningApp, file: string): Promise<Figure> {
  let peak = serverRss(app);
  const sampler = setInterval(() => {
    peak = Math.max(peak, serverRss(app));
  }, 50);
  const health = { polls: 0, failures: 0, slowest: 0 };
  let done = false;
  const poller = (async () => {
    while (!done) {
      const t = performance.now();
      const ok = await fetch(`${app.base}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
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
  const form = new FormData();
  form.append("file", await fs.openAsBlob(file), path.basename(file));
  const res = await fetch(`${app.base}/api/imports`, {
    method: "POST",
    body: form,
    headers: { cookie: app.cookie, origin: app.base },
  });
  const text = await res.text();
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await poller;
  clearInterval(sampler);
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
  return {
    file: path.basename(file),
    size: formatBytes(fs.statSync(file).size),
    status: res.status,
    answer: answer.slice(0, 160),
    seconds: Math.round(seconds * 10) / 10,
    peak_rss_mb: Math.round(peak / MiB),
    health_polls: health.polls,
    health_failures: health.failures,
    health_slowest_ms: Math.round(health.slowest),
  };
}

log("writing the files");
const files = await makeFiles();
const target = await freshTarget(dir);
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
  for (const file of [files.bomb, files.line, files.tiny]) {
    log(`sending ${path.basename(file)}`);
    figures.push(await send(app, file));
  }
  console.log(
    `\n${describeTarget(target)}, ${os.cpus().length} cores; the server at ${Math.round(idle / MiB)} MB RSS ` +
      `before the uploads, ${Math.round(serverRss(app) / MiB)} MB after\n`,
  );
  const row = (...cells: string[]) =>
    console.log(cells.map((c, i) => c.padEnd([18, 10, 8, 9, 10, 22, 0][i]!)).join(" "));
  row("file", "size", "HTTP", "seconds", "peak RSS", "health (failed/polls)", "answer");
  for (const f of figures)
    row(
      f.file,
      f.size,
      String(f.status),
      String(f.seconds),
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
  await dropBenchDatabase().catch(() => {});
}
process.exit(0);
