// npm run bench -- [--scale S] [--duration SECONDS] [--connections C] [--previous FILE] [--keep]
// The paper-scale benchmark (scale 1: 15,000 trajectories = 3 models × 2 benchmarks × 2 network
// settings × 2 prompts × 3 runs over 209 tasks, 60–150 steps each, outputs from a few bytes to a few
// MB, 3 judges, labels on a sample). It builds the corpus, imports it, starts the real app on it
// and prints one table, every figure beside its baseline measured in the same run, then the same
// figures as one JSON line. PostgreSQL with DATABASE_URL (a database of its own), else PGlite. On
// PostgreSQL it ends with issue 31's working study (bench-mixed.ts): a judge run alone and beside
// readers and annotators, at 200 ms an answer and at a served judge's pace, the database watched in
// each mixed window; `npm run bench:mixed` repeats that part on a study `--keep` left.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { getAgreement } from "@/lib/data/agreement";
import { shareReport } from "@/lib/data/report-links";
import { getResults } from "@/lib/data/results";
import { compactTallies } from "@/lib/data/tallies";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db/connect";
import { importFile } from "@/lib/work/import/files";
import { freezeReport } from "@/lib/work/reports/frozen";
import { prng } from "@/prisma/factories";
import { applyMigrations } from "@/prisma/migrate-engine";
import { addBenchAccount, BENCH_ACCOUNT, startApp } from "./bench-app";
import { bundleFigures } from "./bench-bundle";
import {
  dropBenchDatabase,
  freshTarget,
  rawCopy,
  type Shape,
  taskRecords,
  trajectoryRecord,
  writeJsonl,
} from "./bench-corpus";
import { type Load, loadPaths } from "./bench-load";
import { mixedLoad, mixedRows, tableRow } from "./bench-mixed";
import { ruleTimings } from "./bench-rules";

const { values } = parseArgs({
  options: {
    scale: { type: "string", default: "1" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    port: { type: "string", default: "3310" },
    /** A file holding an earlier run's JSON line: its page sizes are printed beside this run's. */
    previous: { type: "string" },
    /** Keep the study's database at the end (shortcut_audit_bench), for bench:rules and the like. */
    keep: { type: "boolean", default: false },
  },
});
const SCALE = Number(values.scale),
  DURATION = Number(values.duration),
  CONNECTIONS = Number(values.connections),
  PORT = Number(values.port);
const N = Math.max(72, Math.round(15_000 * SCALE));
const LONG = 5000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-bench-"));
const log = (s: string) => console.error(`[bench] ${s}`);

/** The figures of an earlier run: the last JSON line of its output. */
function previousFigures(file: string): Record<string, unknown> {
  const line = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .at(-1);
  return line ? (JSON.parse(line) as Record<string, unknown>) : {};
}

// ---- corpus ------------------------------------------------------------------------------------
const VERDICTS = ["NOT_ATTEMPTED", "ATTEMPTED", "SUCCESSFUL"] as const;
const shape: Shape = {
  // Trajectory 0 is the long one the timeline figures read.
  steps: (i, rand) => (i === 0 ? LONG : 60 + Math.floor(rand() * 91)),
  // Most outputs are short (exponential, mean 800 bytes); one in a thousand is 64 KB to 3 MB.
  outputBytes: (rand) =>
    rand() < 0.001
      ? Math.floor(64 * 1024 * Math.exp(rand() * Math.log(48)))
      : Math.floor(800 * -Math.log(1 - rand() * 0.999)),
};
const rand = prng(42);
const files = {
  trajectories: path.join(dir, "trajectories.jsonl"),
  votes: path.join(dir, "votes.jsonl"),
  labels: path.join(dir, "labels.jsonl"),
};
log(`writing ${N} trajectories to ${dir}`);
await writeJsonl(
  files.trajectories,
  (function* () {
    for (let i = 0; i < N; i++) yield trajectoryRecord(i, rand, shape);
  })(),
);
const verdicts = () =>
  Object.fromEntries(
    ["upstream", "local_git", "memory", "other"].map((c) => [c, VERDICTS[rand() < 0.7 ? 0 : rand() < 0.6 ? 1 : 2]]),
  );
await writeJsonl(
  files.votes,
  (function* () {
    for (let i = 0; i < N; i++)
      for (const judge of ["judge-a", "judge-b", "judge-c"])
        yield {
          type: "judge_vote",
          trajectory: { id: `bench-${i}` },
          judge,
          verdicts: verdicts(),
          rationale: "synthetic",
        };
  })(),
);
await writeJsonl(
  files.labels,
  (function* () {
    for (let i = 0; i < N; i += 33)
      for (const annotator of ["alice", "bob"])
        yield { type: "label", trajectory: { id: `bench-${i}` }, annotator, verdicts: verdicts() };
  })(),
);
const mb = fs.statSync(files.trajectories).size / 1024 ** 2;

// ---- import, beside a raw COPY -------------------------------------------------------------------
const target = await freshTarget(dir, "study");
const handle = connect(target);
setCurrentDb(handle);
await applyMigrations(target, handle.pglite ?? undefined);
log(`corpus ${mb.toFixed(0)} MB; importing into ${describeTarget(target)}`);

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 25);
const rssBefore = process.memoryUsage().rss;
let t0 = performance.now();
const imported = await importFile(files.trajectories, { condition: {}, resolved: null, source: "cli" });
const importSeconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
if (!imported.ok) throw new Error(`bench import rejected: ${JSON.stringify(imported.errors.slice(0, 3))}`);
for (const f of [files.votes, files.labels]) {
  const r = await importFile(f, { condition: {}, resolved: null, source: "cli" });
  if (!r.ok) throw new Error(`bench import rejected ${f}: ${JSON.stringify(r.errors.slice(0, 3))}`);
}

// Task records last: their import computes the evidence of every trajectory, the work an import of
// trajectories whose records are already in does as it goes.
const tasksFile = path.join(dir, "tasks.jsonl");
await writeJsonl(tasksFile, taskRecords(N, rand));
log("task records: evidence of every trajectory");
t0 = performance.now();
const tasked = await importFile(tasksFile, { condition: {}, resolved: null, source: "cli" });
const evidenceSeconds = (performance.now() - t0) / 1000;
if (!tasked.ok) throw new Error(`bench task records rejected: ${JSON.stringify(tasked.errors.slice(0, 3))}`);

log("raw COPY baseline");
const { seconds: copySeconds } = await rawCopy(files.trajectories);
const lz4Seconds =
  handle.target.kind === "postgres" ? (await rawCopy(files.trajectories, { compression: "lz4" })).seconds : null;
await handle.prisma.$executeRawUnsafe("ANALYZE");
// The app's tables as the study fills them (with indexes and TOAST), for docs/scale.md.
const tableSizes = await handle.prisma.$queryRawUnsafe<Array<{ name: string; rows: number; mb: number }>>(
  `SELECT c.relname AS name, greatest(c.reltuples, 0)::float8 AS rows,
     round(pg_total_relation_size(c.oid) / 1048576.0, 1)::float8 AS mb
   FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace AND c.relname NOT LIKE 'bench%'
     AND pg_total_relation_size(c.oid) > 1048576 ORDER BY pg_total_relation_size(c.oid) DESC`,
);

// ---- queries, beside the bare SQL aggregate ------------------------------------------------------
// The tallies' deltas folded, as the first reader of a study at rest leaves them (bench-results.ts too).
await compactTallies("results");
await compactTallies("agreement");
async function median(fn: () => Promise<unknown>, repeat = 5): Promise<number> {
  await fn(); // warm, as bench-results.ts: the connection plans its statements once, the code is compiled
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[Math.floor(repeat / 2)]!;
}
const q = (s: string) => () => handle.prisma.$queryRawUnsafe(s);
const queries = {
  results_ms: await median(() => getResults()),
  results_bare_ms: await median(
    q(
      `SELECT "benchmarkId", "modelId", network, prompt, "panelVerdict", count(*) FROM trajectory GROUP BY 1, 2, 3,
        4, 5`,
    ),
  ),
  agreement_ms: await median(() => getAgreement()),
  agreement_bare_ms: await median(
    q(
      `SELECT t.network, t.prompt, l.overall, t."panelVerdict", count(*) FROM label l JOIN trajectory t ON t.id =
        l."trajectoryId" GROUP BY 1, 2, 3, 4`,
    ),
  ),
  // New rules tried over the whole study beside bare queries, and the Rules page's figures (bench-rules.ts).
  ...(await ruleTimings((sql) => handle.prisma.$queryRawUnsafe(sql))),
};
// Said at once, so a later failure (the app's build, a page) does not lose what was measured.
log(`queries: ${JSON.stringify(queries)}`);
const [{ id: longId }] = (await handle.prisma.$queryRawUnsafe<Array<{ id: number }>>(
  `SELECT id FROM trajectory WHERE "externalId" = 'bench-0'`,
)) as [{ id: number }];
await addBenchAccount();
// A frozen report and a read-only link to it, for the shared report's page.
const bench = await handle.prisma.user.findUniqueOrThrow({ where: { email: BENCH_ACCOUNT.email } });
const benchActor = { id: bench.id, handle: bench.handle, role: "RESEARCHER" as const };
const reportId = await freezeReport(benchActor, "bench");
const reportToken = await shareReport(benchActor, reportId, null);
const bundle = await bundleFigures(reportId, log);
log(`bundle: ${JSON.stringify(bundle)}`);
await closeCurrentDb();

// ---- the app: server time and bytes, the browser, load --------------------------------------------
log(`starting the app on port ${PORT}, pages rendered afresh (PAGE_CACHE_MB=0)`);
let app = await startApp(target, PORT, BENCH_ACCOUNT, { PAGE_CACHE_MB: "0" });
let { base, cookie } = app;
try {
  const pages = {
    list: "/trajectories",
    list_filtered: "/trajectories?network=on&prompt=vanilla&panel=SUCCESSFUL",
    list_search: "/trajectories?q=git+log+--all",
    results: "/results",
    timeline_5000: `/trajectories/${longId}`,
    timeline_5000_last: `/trajectories/${longId}?page=${Math.ceil(LONG / 50)}`,
    report: `/reports/${reportId}`,
    report_shared: `/r/${reportToken}`,
  };
  const http: Record<string, { ms: number; bytes: number }> = {};
  for (const [name, url] of Object.entries(pages)) {
    let bytes = 0;
    await fetch(`${base}${url}`, { headers: { cookie } }).then((r) => r.arrayBuffer()); // warm
    const ms = await median(async () => {
      const r = await fetch(`${base}${url}`, { headers: { cookie } });
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      bytes = (await r.arrayBuffer()).byteLength;
    });
    http[name] = { ms, bytes };
  }

  log("Chromium: the 5,000-step timeline");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  const context = await browser.newContext();
  const [name, value] = cookie.split("=") as [string, string];
  await context.addCookies([{ name, value, url: base }]);
  const page = await context.newPage();
  const firstStep: number[] = [];
  let domNodes = 0;
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    await page.goto(`${base}${pages.timeline_5000}`, { waitUntil: "commit" });
    await page.locator("#step-1").waitFor({ state: "visible" });
    firstStep.push(performance.now() - t0);
  }
  for (let k = 0; k <= 10; k++) {
    domNodes = Math.max(
      domNodes,
      await page.evaluate((f) => {
        window.scrollTo(0, f * document.body.scrollHeight);
        return document.getElementsByTagName("*").length;
      }, k / 10),
    );
  }
  await browser.close();

  const LOADED = ["list", "list_filtered", "results", "timeline_5000", "report_shared"] as const;
  /** CONNECTIONS clients on each page for DURATION seconds. */
  const loadAll = async (): Promise<Record<string, Load>> => {
    const load: Record<string, Load> = {};
    for (const name of LOADED) {
      // One reader first: a process just started computes what the page shows, timed apart above;
      // the load measures the readers after it.
      await fetch(`${base}${pages[name]}`, { headers: { cookie } }).then((r) => r.arrayBuffer());
      load[name] = await loadPaths(base, cookie, DURATION, CONNECTIONS, [pages[name]]);
    }
    return load;
  };
  log(`load, pages rendered afresh: ${CONNECTIONS} clients, ${DURATION} s a page`);
  const loadOff = await loadAll();
  await app.stop();
  log("starting the app again with its page cache (the default)");
  app = await startApp(target, PORT, BENCH_ACCOUNT);
  ({ base, cookie } = app);
  log(`load, pages kept until their data change: ${CONNECTIONS} clients, ${DURATION} s a page`);
  const load = await loadAll();
  const mixed = await mixedLoad({
    target,
    base,
    cookie,
    researcher: benchActor,
    timeline: pages.timeline_5000,
    seconds: Math.max(10, DURATION * 2),
    connections: CONNECTIONS,
    log,
  });

  // ---- report ------------------------------------------------------------------------------------
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const r2 = (x: number) => (Math.round(x * 100) / 100).toFixed(2);
  const figures = {
    database: target.kind,
    scale: SCALE,
    trajectories: N,
    corpus_mb: r1(mb),
    ...Object.fromEntries(
      tableSizes.flatMap((t) => [
        [`table_${t.name}_mb`, t.mb],
        [`table_${t.name}_rows`, t.rows],
      ]),
    ),
    import_seconds: r1(importSeconds),
    import_mb_per_s: r1(mb / importSeconds),
    import_trajectories_per_s: r1(N / importSeconds),
    evidence_seconds: r1(evidenceSeconds),
    import_with_task_records_trajectories_per_s: r1(N / (importSeconds + evidenceSeconds)),
    evidence_share_of_import: +(evidenceSeconds / (importSeconds + evidenceSeconds)).toFixed(3),
    raw_copy_seconds: r1(copySeconds),
    raw_copy_mb_per_s: r1(mb / copySeconds),
    import_ratio_to_raw_copy: +(copySeconds / importSeconds).toFixed(3),
    import_ratio_to_raw_copy_lz4: lz4Seconds === null ? null : +(lz4Seconds / importSeconds).toFixed(3),
    import_peak_rss_mb: Math.round(peakRss / 1024 ** 2),
    rss_before_import_mb: Math.round(rssBefore / 1024 ** 2),
    results_ms: r1(queries.results_ms),
    results_bare_ms: r1(queries.results_bare_ms),
    agreement_ms: r1(queries.agreement_ms),
    agreement_bare_ms: r1(queries.agreement_bare_ms),
    results_ratio_to_bare: +(queries.results_ms / queries.results_bare_ms).toFixed(2),
    agreement_ratio_to_bare: +(queries.agreement_ms / queries.agreement_bare_ms).toFixed(2),
    rule_command_ms: r1(queries.rule_command_ms),
    rule_command_bare_ms: r1(queries.rule_command_bare_ms),
    rule_output_ms: r1(queries.rule_output_ms),
    rule_output_bare_ms: r1(queries.rule_output_bare_ms),
    rule_scan_ms: r1(queries.rule_scan_ms),
    rules_page_figures_ms: r1(queries.rules_page_figures_ms),
    ...Object.fromEntries(
      Object.entries(http).flatMap(([k, v]) => [
        [`http_${k}_ms`, r1(v.ms)],
        [`http_${k}_bytes`, v.bytes],
      ]),
    ),
    chromium_first_step_ms: r1(firstStep.sort((a, b) => a - b)[1]!),
    chromium_max_dom_nodes: domNodes,
    ...Object.fromEntries(
      Object.entries(load).flatMap(([k, v]) => [
        [`load_${k}_rps`, r1(v.rps)],
        [`load_${k}_p50_ms`, v.p50],
        [`load_${k}_p95_ms`, v.p95],
        [`load_${k}_p99_ms`, v.p99],
        [`load_${k}_errors`, v.errors],
        [`load_${k}_p95_ms_cache_off`, loadOff[k]!.p95],
        [`load_${k}_rps_cache_off`, r1(loadOff[k]!.rps)],
        [`load_${k}_errors_cache_off`, loadOff[k]!.errors],
      ]),
    ),
    load_connections: CONNECTIONS,
    load_seconds: DURATION,
    ...bundle,
    mixed,
  };
  const row = (what: string, figure: string, baseline = "") => console.log(tableRow(what, figure, baseline));
  console.log(
    `\n${describeTarget(target)}: ${N} trajectories, ${mb.toFixed(0)} MB of JSONL, ${os.cpus().length} cores\n`,
  );
  row("what", "figure", "baseline in the same run");
  for (const t of tableSizes)
    row(`table ${t.name}`, `${t.mb} MB`, `${Math.round(t.rows).toLocaleString("en-US")} rows`);
  row(
    "import",
    `${figures.import_mb_per_s} MB/s, ${figures.import_trajectories_per_s} trajectories/s`,
    `raw COPY ${figures.raw_copy_mb_per_s} MB/s: ratio ${figures.import_ratio_to_raw_copy}` +
      (figures.import_ratio_to_raw_copy_lz4 === null
        ? ""
        : ` (${figures.import_ratio_to_raw_copy_lz4} against bare tables compressed with lz4)`),
  );
  row(
    "import with task records",
    `${figures.import_with_task_records_trajectories_per_s} trajectories/s`,
    `evidence ${figures.evidence_seconds} s, ${(100 * figures.evidence_share_of_import).toFixed(0)}% of the import`,
  );
  row(
    "import peak memory",
    `${figures.import_peak_rss_mb} MB RSS`,
    `${figures.rss_before_import_mb} MB before, corpus ${figures.corpus_mb} MB`,
  );
  row(
    "result table query",
    `${figures.results_ms} ms`,
    `bare GROUP BY ${figures.results_bare_ms} ms: ratio ${figures.results_ratio_to_bare}`,
  );
  row(
    "a new command rule, tried",
    `${figures.rule_command_ms} ms`,
    `bare query ${figures.rule_command_bare_ms} ms: ratio ` +
      r2(figures.rule_command_ms / figures.rule_command_bare_ms),
  );
  row(
    "a new output rule, tried",
    `${figures.rule_output_ms} ms`,
    `bare query ${figures.rule_output_bare_ms} ms: ratio ${r2(figures.rule_output_ms / figures.rule_output_bare_ms)}`,
  );
  row(
    "the rules' hits kept, every rule's first scan",
    `${figures.rule_scan_ms} ms`,
    "in steps of 200 trajectories; a server runs it in the background after an import",
  );
  row("every rule in force measured (Rules page)", `${figures.rules_page_figures_ms} ms`, "from the kept hits");
  row(
    "the report as a bundle (report bundle)",
    `${figures.bundle_seconds} s, ${figures.bundle_mb} MB in ${figures.bundle_files} files`,
    `export ${figures.export_mb} MB; largest ${figures.bundle_largest_file} ${figures.bundle_largest_mb} MB`,
  );
  row(
    "its pages from file:// in Chromium",
    `report ${figures.bundle_first_page_ms} ms`,
    `list ${figures.bundle_list_ms} ms, a trajectory ${figures.bundle_trajectory_ms} ms`,
  );
  row(
    "agreement query",
    `${figures.agreement_ms} ms`,
    `bare GROUP BY ${figures.agreement_bare_ms} ms: ratio ${figures.agreement_ratio_to_bare}`,
  );
  const previous = values.previous ? previousFigures(values.previous) : {};
  for (const [k, v] of Object.entries(http)) {
    const before = previous[`http_${k}_bytes`];
    row(
      `server ${k.replaceAll("_", " ")}`,
      `${r1(v.ms)} ms, ${(v.bytes / 1024).toFixed(0)} KB`,
      typeof before === "number" ? `previous run: ${(before / 1024).toFixed(0)} KB` : "",
    );
  }
  row(
    "Chromium, 5,000 steps",
    `first step visible ${figures.chromium_first_step_ms} ms`,
    `at most ${domNodes} DOM nodes while scrolling`,
  );
  for (const [k, v] of Object.entries(load)) {
    const off = loadOff[k]!;
    row(
      `load ${k.replaceAll("_", " ")}`,
      `${r1(v.rps)} req/s, p50/p95/p99 ${v.p50}/${v.p95}/${v.p99} ms, ${v.errors} errors`,
      `rendered afresh: ${r1(off.rps)} req/s, p95 ${off.p95} ms, ${off.errors} errors ` +
        `(${CONNECTIONS} clients, ${DURATION} s)`,
    );
  }
  if (mixed) {
    for (const r of mixedRows(mixed, CONNECTIONS)) row(...r);
  } else row("mixed load", "PostgreSQL only (the embedded database is the app's alone)");
  console.log(JSON.stringify(figures));
} finally {
  await app.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  if (!values.keep) await dropBenchDatabase("study").catch(() => {});
}
process.exit(0);
