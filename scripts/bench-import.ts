// npm run bench:import -- [--trajectories N] [--steps S] [--output-bytes B] [--inspect-samples M]
// Generates a synthetic JSONL corpus, imports it into a fresh database (PostgreSQL with
// DATABASE_URL, else PGlite in a temporary folder), and prints MB/s and trajectories/s beside a raw
// COPY of the same rows (trajectories, messages, tool calls, search documents) into bare tables (no
// indexes, no constraints) in the same run, as a ratio; on PostgreSQL also beside bare tables whose
// text is lz4-compressed as the app's is. Then an Inspect AI `.eval` archive of M samples of S steps
// and the app's own JSONL of the same trajectories, each imported and its rate printed (M = 0 skips
// it). Ends with the figures as one JSON line.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db/connect";
import { importFile } from "@/lib/work/import/files";
import { prng } from "@/prisma/factories";
import { applyMigrations } from "@/prisma/migrate-engine";
import {
  dropBenchDatabase,
  freshTarget,
  inspectSample,
  rawCopy,
  type Shape,
  trajectoryRecord,
  writeEval,
  writeJsonl,
} from "./bench-corpus";

const { values } = parseArgs({
  options: {
    trajectories: { type: "string", default: "500" },
    steps: { type: "string", default: "100" },
    "output-bytes": { type: "string", default: "2000" },
    "inspect-samples": { type: "string", default: "1000" },
  },
});
const N = Number(values.trajectories),
  STEPS = Number(values.steps),
  OUT = Number(values["output-bytes"]);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-bench-"));
const corpus = path.join(dir, "corpus.jsonl");

const shape: Shape = {
  steps: () => STEPS,
  // Outputs from a few bytes to several times the mean, as real tool outputs vary.
  outputBytes: (rand) => Math.floor(OUT * -Math.log(1 - rand() * 0.999)),
};

const rand = prng(42);
await writeJsonl(
  corpus,
  (function* () {
    for (let i = 0; i < N; i++) yield trajectoryRecord(i, rand, shape);
  })(),
);
const bytes = fs.statSync(corpus).size;
const mb = bytes / 1024 ** 2;

const target = await freshTarget(dir, "import");
const handle = connect(target);
setCurrentDb(handle);
await applyMigrations(target, handle.pglite ?? undefined);
console.error(`corpus: ${N} trajectories × ${STEPS} steps, ${mb.toFixed(1)} MB; database: ${describeTarget(target)}`);

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const t0 = performance.now();
const result = await importFile(corpus, { condition: {}, resolved: null, source: "cli" });
const importSeconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
if (!result.ok) throw new Error(`bench import rejected: ${JSON.stringify(result.errors.slice(0, 3))}`);

// The running tallies' share (decisions 37 and 39): two more corpora of the same shape, the first
// imported with the tally triggers off, the second with them on again, beside each other in the same run.
async function talliesOn(on: boolean): Promise<void> {
  const writes = ["insert", "update", "delete"];
  const triggers = {
    trajectory: [
      ...[...writes, "votes_gone"].map((t) => `result_tally_trajectory_${t}`),
      ...["update", "delete"].map((t) => `agreement_trajectory_${t}`),
    ],
    judge_vote: writes.flatMap((t) => [`result_tally_vote_${t}`, `agreement_vote_${t}`]),
    label: writes.map((t) => `agreement_label_${t}`),
    study_item: writes.map((t) => `agreement_item_${t}`),
  };
  for (const [table, names] of Object.entries(triggers))
    for (const name of names)
      await handle.prisma.$executeRawUnsafe(`ALTER TABLE ${table} ${on ? "ENABLE" : "DISABLE"} TRIGGER ${name}`);
}
async function importAgain(offset: number, tallies: boolean): Promise<number> {
  const file = path.join(dir, `again-${offset}.jsonl`);
  const again = prng(42 + offset);
  await writeJsonl(
    file,
    (function* () {
      for (let i = 0; i < N; i++) yield trajectoryRecord(offset + i, again, shape);
    })(),
  );
  await talliesOn(tallies);
  const started = performance.now();
  const res = await importFile(file, { condition: {}, resolved: null, source: "cli" });
  const seconds = (performance.now() - started) / 1000;
  if (!res.ok) throw new Error(`bench import rejected: ${JSON.stringify(res.errors.slice(0, 3))}`);
  await talliesOn(true);
  return N / seconds;
}
const withoutTallies = await importAgain(1_000_000, false);
const withTallies = await importAgain(2_000_000, true);

const { seconds: copySeconds, rows } = await rawCopy(corpus);
// Like with like: the app's message and tool-call text is lz4-compressed where the server has lz4.
const lz4 = target.kind === "postgres" ? await rawCopy(corpus, { compression: "lz4" }) : null;
const inspect = await inspectVersusJsonl(Number(values["inspect-samples"]));

const figures = {
  database: target.kind,
  trajectories: N,
  steps: STEPS,
  corpus_mb: +mb.toFixed(2),
  rows,
  import_seconds: +importSeconds.toFixed(2),
  import_mb_per_s: +(mb / importSeconds).toFixed(2),
  import_trajectories_per_s: +(N / importSeconds).toFixed(1),
  raw_copy_seconds: +copySeconds.toFixed(2),
  raw_copy_mb_per_s: +(mb / copySeconds).toFixed(2),
  ratio_to_raw_copy: +(copySeconds / importSeconds).toFixed(3),
  peak_rss_mb: Math.round(peakRss / 1024 ** 2),
  raw_copy_lz4_seconds: lz4 ? +lz4.seconds.toFixed(2) : null,
  ratio_to_raw_copy_lz4: lz4 ? +(lz4.seconds / importSeconds).toFixed(3) : null,
  ...inspect?.figures,
  again_without_tallies_trajectories_per_s: +withoutTallies.toFixed(1),
  again_with_tallies_trajectories_per_s: +withTallies.toFixed(1),
  tallies_rate_change: +(withTallies / withoutTallies - 1).toFixed(3),
};
console.log("");
console.log(
  `import      ${figures.import_seconds.toFixed(2).padStart(8)} s  ` +
    `${figures.import_mb_per_s.toFixed(1).padStart(7)} MB/s  ` +
    `${figures.import_trajectories_per_s.toFixed(0).padStart(6)} trajectories/s  peak RSS ${figures.peak_rss_mb} MB`,
);
console.log(
  `raw COPY    ${figures.raw_copy_seconds.toFixed(2).padStart(8)} s  ` +
    `${figures.raw_copy_mb_per_s.toFixed(1).padStart(7)} MB/s  (${figures.rows} rows into bare tables)`,
);
console.log(`ratio       import rate / raw COPY rate = ${figures.ratio_to_raw_copy}`);
if (lz4)
  console.log(
    `raw COPY into bare tables compressed with lz4 as the app's are: ${lz4.seconds.toFixed(2)} s, ratio ` +
      `${figures.ratio_to_raw_copy_lz4}`,
  );
console.log(
  `tallies     ${N} more trajectories: ${figures.again_without_tallies_trajectories_per_s} trajectories/s with ` +
    `the tally triggers off, then ${figures.again_with_tallies_trajectories_per_s} with them on ` +
    `(${(figures.tallies_rate_change * 100).toFixed(1)}%)`,
);
if (inspect) for (const line of inspect.lines) console.log(line);
console.log(JSON.stringify(figures));

await closeCurrentDb();
fs.rmSync(dir, { recursive: true, force: true });
await dropBenchDatabase("import");
process.exit(0);

/**
 * M trajectories of the bench's shape written twice, as an Inspect `.eval` archive and as the app's
 * JSONL (under another benchmark, so neither replaces the other), each imported and timed.
 */
async function inspectVersusJsonl(m: number): Promise<{ figures: Record<string, number>; lines: string[] } | null> {
  if (!m) return null;
  const r = prng(7);
  const records = Array.from({ length: m }, (_, i) => trajectoryRecord(i, r, shape));
  const evalFile = path.join(dir, "corpus.eval");
  await writeEval(
    evalFile,
    records.map((rec, i) => inspectSample(rec, `owner__inspect-${i}`)),
  );
  const jsonlFile = path.join(dir, "same-steps.jsonl");
  await writeJsonl(
    jsonlFile,
    records.map((rec, i) => ({
      ...rec,
      id: `same-${i}`,
      benchmark: "bench-same-steps",
      task: { id: `owner__same-${i}` },
    })),
  );
  const timed = async (file: string, condition: Record<string, unknown>) => {
    const started = performance.now();
    const res = await importFile(file, { condition, resolved: null, source: "cli" });
    if (!res.ok) throw new Error(`${file} rejected: ${JSON.stringify(res.errors.slice(0, 3))}`);
    return { seconds: (performance.now() - started) / 1000, mb: fs.statSync(file).size / 1024 ** 2 };
  };
  const ev = await timed(evalFile, { network: false, prompt: "vanilla" });
  const js = await timed(jsonlFile, {});
  const rate = (x: { seconds: number }) => m / x.seconds;
  const line = (name: string, x: { seconds: number; mb: number }) =>
    `${name.padEnd(12)}${x.seconds.toFixed(2).padStart(8)} s  ${(x.mb / x.seconds).toFixed(1).padStart(7)} MB/s  ` +
    `${rate(x).toFixed(0).padStart(6)} trajectories/s  (${m} × ${STEPS} steps, ${x.mb.toFixed(1)} MB)`;
  return {
    figures: {
      inspect_samples: m,
      inspect_eval_mb: +ev.mb.toFixed(2),
      inspect_eval_seconds: +ev.seconds.toFixed(2),
      inspect_eval_trajectories_per_s: +rate(ev).toFixed(1),
      same_steps_jsonl_seconds: +js.seconds.toFixed(2),
      same_steps_jsonl_trajectories_per_s: +rate(js).toFixed(1),
    },
    lines: ["", line("Inspect .eval", ev), line("same JSONL", js)],
  };
}
