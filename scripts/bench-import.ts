// npm run bench:import -- [--trajectories N] [--steps S] [--output-bytes B]
// Generates a synthetic JSONL corpus, imports it into a fresh database (PostgreSQL with
// DATABASE_URL, else PGlite in a temporary folder), and prints MB/s and trajectories/s beside a raw
// COPY of the same message and tool-call rows into bare tables (no indexes, no constraints) in the
// same run, as a ratio. Ends with the figures as one JSON line.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeCurrentDb, connect, setCurrentDb, describeTarget, type DbTarget } from "@/lib/db-connect";
import { applyMigrations } from "@/prisma/migrate-engine";
import { importFile } from "@/lib/files/import-files";
import { transaction } from "@/lib/data/sql";
import { numberSteps, type Turn } from "@/lib/domain/steps";
import { trajectoryRecord, writeJsonl, type Shape } from "./bench-corpus";
import { prng } from "@/prisma/factories";
import { adminQuery, withDatabase } from "@/test/test-db";

const { values } = parseArgs({ options: { trajectories: { type: "string", default: "500" }, steps: { type: "string", default: "100" }, "output-bytes": { type: "string", default: "2000" } } });
const N = Number(values.trajectories), STEPS = Number(values.steps), OUT = Number(values["output-bytes"]);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-bench-"));
const corpus = path.join(dir, "corpus.jsonl");

const shape: Shape = {
  steps: () => STEPS,
  // Outputs from a few bytes to several times the mean, as real tool outputs vary.
  outputBytes: (rand) => Math.floor(OUT * -Math.log(1 - rand() * 0.999)),
};

async function freshTarget(): Promise<DbTarget> {
  if (process.env.DATABASE_URL) {
    await adminQuery(process.env.DATABASE_URL, `DROP DATABASE IF EXISTS "shortcut_audit_bench" WITH (FORCE)`);
    await adminQuery(process.env.DATABASE_URL, `CREATE DATABASE "shortcut_audit_bench"`);
    return { kind: "postgres", url: withDatabase(process.env.DATABASE_URL, "shortcut_audit_bench") };
  }
  return { kind: "pglite", dir: path.join(dir, "pglite") };
}

const rand = prng(42);
await writeJsonl(corpus, (function* () { for (let i = 0; i < N; i++) yield trajectoryRecord(i, rand, shape); })());
const bytes = fs.statSync(corpus).size;
const mb = bytes / 1024 ** 2;

const target = await freshTarget();
const handle = connect(target);
setCurrentDb(handle);
await applyMigrations(target, handle.pglite ?? undefined);
console.error(`corpus: ${N} trajectories × ${STEPS} steps, ${mb.toFixed(1)} MB; database: ${describeTarget(target)}`);

let peakRss = 0;
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 50);
const t0 = performance.now();
const result = await importFile(corpus, { condition: {}, resolved: null, source: "cli" });
const importSeconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
if (!result.ok) throw new Error(`bench import rejected: ${JSON.stringify(result.errors.slice(0, 3))}`);

// Baseline: the same message and tool-call rows, COPYed into bare tables in one transaction.
const messages: unknown[][] = [];
const calls: unknown[][] = [];
for (const line of fs.readFileSync(corpus, "utf8").split("\n")) {
  if (!line) continue;
  const t = JSON.parse(line) as { id: string; turns: Turn[] };
  const id = Number(t.id.slice(6));
  for (const m of numberSteps(t.turns).messages) {
    messages.push([id, m.seq, m.step, m.role, m.content, m.reasoning, m.toolCallId, m.exitCode]);
    for (const c of m.toolCalls) calls.push([id, m.seq, m.step, c.seq, c.callId, c.name, c.input, c.inputIsJson]);
  }
}
await transaction(async (sql) => {
  await sql.query(`CREATE TABLE bench_message (t int, seq int, step int, role text, content text, reasoning text, tool_call_id text, exit_code int)`);
  await sql.query(`CREATE TABLE bench_tool_call (t int, message_seq int, step int, seq int, call_id text, name text, input text, input_is_json bool)`);
});
const t1 = performance.now();
await transaction(async (sql) => {
  await sql.copy("bench_message", ["t", "seq", "step", "role", "content", "reasoning", "tool_call_id", "exit_code"], messages);
  await sql.copy("bench_tool_call", ["t", "message_seq", "step", "seq", "call_id", "name", "input", "input_is_json"], calls);
});
const copySeconds = (performance.now() - t1) / 1000;

const figures = {
  database: target.kind, trajectories: N, steps: STEPS, corpus_mb: +mb.toFixed(2), rows: messages.length + calls.length,
  import_seconds: +importSeconds.toFixed(2), import_mb_per_s: +(mb / importSeconds).toFixed(2), import_trajectories_per_s: +(N / importSeconds).toFixed(1),
  raw_copy_seconds: +copySeconds.toFixed(2), raw_copy_mb_per_s: +(mb / copySeconds).toFixed(2),
  ratio_to_raw_copy: +(copySeconds / importSeconds).toFixed(3), peak_rss_mb: Math.round(peakRss / 1024 ** 2),
};
console.log("");
console.log(`import      ${figures.import_seconds.toFixed(2).padStart(8)} s  ${figures.import_mb_per_s.toFixed(1).padStart(7)} MB/s  ${figures.import_trajectories_per_s.toFixed(0).padStart(6)} trajectories/s  peak RSS ${figures.peak_rss_mb} MB`);
console.log(`raw COPY    ${figures.raw_copy_seconds.toFixed(2).padStart(8)} s  ${figures.raw_copy_mb_per_s.toFixed(1).padStart(7)} MB/s  (${figures.rows} rows into bare tables)`);
console.log(`ratio       import rate / raw COPY rate = ${figures.ratio_to_raw_copy}`);
console.log(JSON.stringify(figures));

await closeCurrentDb();
fs.rmSync(dir, { recursive: true, force: true });
if (process.env.DATABASE_URL) await adminQuery(process.env.DATABASE_URL, `DROP DATABASE IF EXISTS "shortcut_audit_bench" WITH (FORCE)`);
process.exit(0);
