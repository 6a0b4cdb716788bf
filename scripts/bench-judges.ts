// npm run bench:judges -- [--trajectories N] [--latency MS] [--concurrency C]
// Then one judge again, each trajectory alone and by cohorts (a prompt version's cohort mode): requests,
// tokens and time per trajectory each way.
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
import { currentPrompt, defineJudge, JudgeDefinitionSchema, savePrompt } from "@/lib/data/judges";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db/connect";
import { cohortLabels } from "@/lib/domain/cohort-answer";
import { MAX_COHORT } from "@/lib/domain/prompt-settings";
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
/** A provider as a process of its own, as a real one would be; stopping it says how many requests it answered. */
async function startProvider(text: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/fake-provider.ts", text, String(LATENCY)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  let waiting: ((line: string) => void) | null = null;
  child.stdout.on("data", (d: Buffer) => {
    for (const line of d.toString().split("\n").filter(Boolean)) {
      if (waiting) {
        waiting(line);
        waiting = null;
      } else lines.push(line);
    }
  });
  const next = () => new Promise<string>((resolve) => (lines.length ? resolve(lines.shift()!) : (waiting = resolve)));
  const url = await Promise.race([
    next(),
    new Promise<string>((_, reject) =>
      child.once("exit", (code) => reject(new Error(`the provider exited (${code})`))),
    ),
  ]);
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      return Number((await next()).replace("requests ", ""));
    },
  };
}
const provider = await startProvider(answer);
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
await provider.stop();

// Cohort mode beside the usual, one judge each way: alone per trajectory, then (a new prompt version)
// the runs of a task by one model in one request; the provider answers every letter of a cohort.
const cohortAnswer = JSON.stringify({
  runs: Object.fromEntries(cohortLabels(MAX_COHORT).map((l) => [l, JSON.parse(answer)])),
});
const modes: Record<string, Record<string, number>> = {};
for (const [mode, text] of [
  ["off", answer],
  ["model", cohortAnswer],
] as const) {
  const current = await currentPrompt();
  if (mode !== current.settings.cohort)
    await savePrompt(current.text, "bench", undefined, { ...current.settings, cohort: mode });
  const asked = await startProvider(text);
  await defineJudge(
    JudgeDefinitionSchema.parse({ name: "bench-solo", baseUrl: asked.url, model: "solo", concurrency: C }),
  );
  const solo = await planRun(["bench-solo"], {}, "bench");
  const queue = await openQueue();
  await enqueue(queue, solo.requests);
  const t0 = performance.now();
  const stop = await workJudges(
    queue,
    await handle.prisma.judge.findMany({ where: { name: "bench-solo" }, select: { id: true, concurrency: true } }),
  );
  for (;;) {
    const q = await runProgress(solo.runId);
    if (!q.pending && !q.asking) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const s = (performance.now() - t0) / 1000;
  await stop();
  await queue.stop({ graceful: false, wait: true });
  const q = await runProgress(solo.runId);
  const requests = await asked.stop();
  modes[mode] = {
    requests,
    requests_per_trajectory: +(requests / N).toFixed(3),
    tokens_in_per_trajectory: +(q.tokensIn / N).toFixed(1),
    tokens_out_per_trajectory: +(q.tokensOut / N).toFixed(1),
    ms_per_trajectory: +((s * 1000) / N).toFixed(2),
    answered: q.done,
    unparseable: await handle.prisma.judgeVote.count({
      where: { judge: { name: "bench-solo" }, parseStatus: "UNPARSEABLE", promptVersion: solo.promptVersion },
    }),
  };
}
console.log(
  `\none judge, ${N} trajectories: each alone, and by cohorts (a task's runs by one model, at most ${MAX_COHORT})`,
);
for (const [mode, f] of Object.entries(modes))
  console.log(
    `  cohort ${mode.padEnd(6)} ${f.requests} requests (${f.requests_per_trajectory} a trajectory), ` +
      `${f.tokens_in_per_trajectory} tokens in and ${f.tokens_out_per_trajectory} out a trajectory, ` +
      `${f.ms_per_trajectory} ms a trajectory, ${f.unparseable} unparseable`,
  );
console.log(JSON.stringify({ cohorts: modes }));
await closeCurrentDb();
fs.rmSync(dir, { recursive: true, force: true });
await dropBenchDatabase("judges");
process.exit(0);
