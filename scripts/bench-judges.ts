// npm run bench:judges -- [--trajectories N] [--latency MS] [--concurrency C]
// A judge run at scale against the local fake provider (never a real one): N trajectories × 3
// judges, each answering after MS milliseconds, C requests at a time per judge. Prints requests per
// second beside the ideal (3 × C ÷ latency), peak memory, the database time the queue and the
// answers' writes cost per request, and how many times each trajectory was read; then the figures
// as one JSON line. PostgreSQL with DATABASE_URL (a database of its own), else PGlite.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { planRun, runProgress } from "@/lib/data/judge-runs";
import { defineJudge, JudgeDefinitionSchema } from "@/lib/data/judges";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db/connect";
import { importFile } from "@/lib/work/import/files";
import { enqueue } from "@/lib/work/judge-runs/queue";
import { sharedReads } from "@/lib/work/judge-runs/shared-reads";
import { workJudges } from "@/lib/work/judge-runs/worker";
import { openQueue } from "@/lib/work/queue";
import { prng } from "@/prisma/factories";
import { applyMigrations } from "@/prisma/migrate-engine";
import { dropBenchDatabase, freshTarget, trajectoryRecord, writeJsonl } from "./bench-corpus";

const { values } = parseArgs({
  options: {
    trajectories: { type: "string", default: "15000" },
    latency: { type: "string", default: "200" },
    concurrency: { type: "string", default: "32" },
  },
});
const N = Number(values.trajectories);
const LATENCY = Number(values.latency);
const C = Number(values.concurrency);
const JUDGES = ["bench-judge-a", "bench-judge-b", "bench-judge-c"];
const log = (s: string) => console.error(`[bench:judges] ${s}`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-bench-judges-"));
const corpus = path.join(dir, "trajectories.jsonl");
const rand = prng(11);
// Short trajectories: the bench measures the queue and the writes, not the size of a request.
await writeJsonl(
  corpus,
  (function* () {
    for (let i = 0; i < N; i++) yield trajectoryRecord(i, rand, { steps: () => 8, outputBytes: () => 200 });
  })(),
);
const target = await freshTarget(dir, "judges");
const handle = connect(target);
setCurrentDb(handle);
await applyMigrations(target, handle.pglite ?? undefined);
log(`importing ${N} trajectories into ${describeTarget(target)}`);
const imported = await importFile(corpus, { condition: {}, resolved: null, source: "cli" });
if (!imported.ok) throw new Error(JSON.stringify(imported.errors.slice(0, 3)));

const answer = JSON.stringify({
  UPSTREAM: "NOT_ATTEMPTED",
  LOCAL_GIT: "ATTEMPTED",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
});
// The provider runs as a process of its own, as a real one would.
const providerProcess = spawn(
  process.execPath,
  ["--import", "tsx", "scripts/fake-provider.ts", answer, String(LATENCY)],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const providerUrl = await new Promise<string>((resolve, reject) => {
  providerProcess.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
  providerProcess.once("exit", (code) => reject(new Error(`the fake provider exited (${code})`)));
});
const provider = { url: providerUrl, close: () => providerProcess.kill("SIGTERM") };
for (const name of JUDGES)
  await defineJudge(JudgeDefinitionSchema.parse({ name, baseUrl: provider.url, model: name, concurrency: C }));

const plan = await planRun(JUDGES, {}, "bench");
log(`run ${plan.runId}: ${plan.requests.length} requests`);
// Statistics, as autovacuum would gather them on a server that runs it (the other benches do the same).
await handle.prisma.$executeRawUnsafe("ANALYZE");
const boss = await openQueue();
await enqueue(boss, plan.requests);
const judges = await handle.prisma.judge.findMany({
  where: { name: { in: JUDGES } },
  select: { id: true, concurrency: true },
});

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
/**
 * Milliseconds the database's backends spent executing statements (pg_stat_database.active_time,
 * PostgreSQL 14+; the statistics are flushed at transaction end, so read after the work); null on PGlite.
 */
async function databaseActiveMs(): Promise<number | null> {
  if (target.kind !== "postgres") return null;
  const [row] = await handle.prisma.$queryRaw<Array<{ ms: number }>>`
    SELECT active_time::float8 AS ms FROM pg_stat_database WHERE datname = current_database()`;
  return row?.ms ?? null;
}
const activeBefore = await databaseActiveMs();
const started = performance.now();
const stopWorkers = await workJudges(boss, judges);
for (;;) {
  const p = await runProgress(plan.runId);
  if (!p.pending && !p.asking) break;
  await new Promise((r) => setTimeout(r, 500));
}
const seconds = (performance.now() - started) / 1000;
// Statistics reach pg_stat_database when a backend goes idle, up to a second later.
await new Promise((r) => setTimeout(r, 1500));
const activeAfter = await databaseActiveMs();
clearInterval(sampler);
await stopWorkers();
await boss.stop({ graceful: false, wait: true });
const p = await runProgress(plan.runId);
// The time the provider was not the bottleneck: wall time minus the pure waiting an ideal queue would do.
const ideal = (JUDGES.length * C * 1000) / LATENCY;
const rps = plan.requests.length / seconds;
const figures = {
  database: target.kind,
  trajectories: N,
  judges: JUDGES.length,
  requests: plan.requests.length,
  answered: p.done,
  failed: p.failed,
  latency_ms: LATENCY,
  concurrency_per_judge: C,
  seconds: +seconds.toFixed(1),
  requests_per_s: +rps.toFixed(1),
  ideal_requests_per_s: +ideal.toFixed(1),
  share_of_ideal: +(rps / ideal).toFixed(3),
  overhead_ms_per_request: +((seconds * 1000 * JUDGES.length * C) / plan.requests.length - LATENCY).toFixed(1),
  peak_rss_mb: Math.round(peakRss / 1024 ** 2),
  // Each built request is one read of its trajectory; the panel's other judges take it as built.
  reads_per_trajectory: +(sharedReads().counts.built / N).toFixed(2),
  database_ms_per_request:
    activeBefore === null || activeAfter === null
      ? null
      : +((activeAfter - activeBefore) / plan.requests.length).toFixed(2),
};
console.log(
  `\n${describeTarget(target)}: ${figures.requests} requests (${N} trajectories × ${JUDGES.length} judges), ` +
    `${LATENCY} ms latency, ${C} at a time per judge\n`,
);
const pct = (100 * figures.share_of_ideal).toFixed(0);
console.log(`requests/s           ${figures.requests_per_s} (ideal ${figures.ideal_requests_per_s}: ${pct}%)`);
console.log(
  `time per request     ${figures.overhead_ms_per_request} ms beyond the provider's ${LATENCY} ms ` +
    "(queue, claim, reading the trajectory, writing the vote)",
);
console.log(
  `database time        ${
    figures.database_ms_per_request === null
      ? "not measured on PGlite"
      : `${figures.database_ms_per_request} ms per request (queue, claims, reads, votes; all backends)`
  }`,
);
console.log(`answered / failed    ${figures.answered} / ${figures.failed}`);
console.log(
  `trajectory reads     ${figures.reads_per_trajectory} per trajectory (one for all ${JUDGES.length} judges at best)`,
);
console.log(`peak memory          ${figures.peak_rss_mb} MB RSS`);
console.log(JSON.stringify(figures));
provider.close();
await closeCurrentDb();
fs.rmSync(dir, { recursive: true, force: true });
await dropBenchDatabase("judges");
process.exit(0);
