// What the benchmarks share (bench.ts, bench-import.ts, bench-results.ts, …): a fresh database of
// each one's own (BENCH_DATABASES), synthetic corpora in the app's own JSONL with the paper's design
// (3 models × 2 benchmarks × 2 network settings × 2 prompts × 3 runs per task, outputs of varied
// words: search indexes care), written as a stream, and the raw COPY baseline.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { transaction } from "@/lib/data/sql";
import type { DbTarget } from "@/lib/db/connect";
import { SearchDocument } from "@/lib/domain/search";
import { numberSteps, type Turn } from "@/lib/domain/steps";
import { prng } from "@/prisma/factories";
import { adminQuery, withDatabase } from "@/test/test-db";

/**
 * The database a benchmark makes for itself on the DATABASE_URL server, by what it is for:
 * `npm run bench`'s study is the one `--keep` leaves for bench:mixed and bench:rules, so no other
 * benchmark may drop it.
 */
export const BENCH_DATABASES = {
  study: "shortcut_audit_bench",
  import: "shortcut_audit_bench_import",
  judges: "shortcut_audit_bench_judges",
  results: "shortcut_audit_bench_results",
  uploads: "shortcut_audit_bench_uploads",
} as const;
type BenchDatabase = keyof typeof BENCH_DATABASES;

/** An empty database for a benchmark: on the DATABASE_URL server, else PGlite in `dir`. */
export async function freshTarget(dir: string, which: BenchDatabase): Promise<DbTarget> {
  if (!process.env.DATABASE_URL) return { kind: "pglite", dir: path.join(dir, "pglite") };
  await dropBenchDatabase(which);
  await adminQuery(process.env.DATABASE_URL, `CREATE DATABASE "${BENCH_DATABASES[which]}"`);
  return { kind: "postgres", url: withDatabase(process.env.DATABASE_URL, BENCH_DATABASES[which]) };
}

export async function dropBenchDatabase(which: BenchDatabase): Promise<void> {
  if (process.env.DATABASE_URL)
    await adminQuery(process.env.DATABASE_URL, `DROP DATABASE IF EXISTS "${BENCH_DATABASES[which]}" WITH (FORCE)`);
}

/** A vocabulary of pseudo-words, so outputs have the variety of real text. */
const VOCABULARY = (() => {
  const r = prng(7);
  return Array.from({ length: 4000 }, () =>
    Array.from({ length: 3 + Math.floor(r() * 8) }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join(""),
  );
})();

export function words(size: number, rand: () => number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const w = VOCABULARY[Math.floor(rand() * VOCABULARY.length)]! + (rand() < 0.1 ? "\n" : " ");
    parts.push(w);
    length += w.length;
  }
  return parts.join("").slice(0, size);
}

export type Shape = { steps: (i: number, rand: () => number) => number; outputBytes: (rand: () => number) => number };

/** Trajectory i of the design: model, benchmark, network, prompt, run and task follow from i. */
export function trajectoryRecord(i: number, rand: () => number, shape: Shape): Record<string, unknown> {
  const turns: Turn[] = [
    { role: "system", content: "You are a software engineer." },
    { role: "user", content: `Fix issue ${i}.` },
  ];
  const steps = shape.steps(i, rand);
  for (let s = 0; s < steps; s++) {
    const id = `c${s}`;
    const input = s % 17 === 0 ? "git log --all --oneline | head" : `sed -n '${s},${s + 40}p' src/mod_${s % 9}.py`;
    turns.push({
      role: "assistant",
      reasoning: "Look at the next file.",
      content: "",
      tool_calls: [{ id, name: "bash", input }],
    });
    turns.push({ role: "tool", tool_call_id: id, content: words(shape.outputBytes(rand), rand), exit_code: 0 });
  }
  return {
    type: "trajectory",
    id: `bench-${i}`,
    benchmark: `bench-${Math.floor(i / 3) % 2}`,
    model: `model-${i % 3}`,
    task: { id: `owner__repo-${Math.floor(i / 72)}` },
    network: Math.floor(i / 6) % 2 === 0,
    prompt: Math.floor(i / 12) % 2 === 0 ? "vanilla" : "principled",
    run: 1 + (Math.floor(i / 24) % 3),
    resolved: rand() < 0.4,
    turns,
  };
}

/** Writes one JSON record a line, waiting for the stream to drain. */
export async function writeJsonl(file: string, records: Iterable<unknown>): Promise<number> {
  const out = fs.createWriteStream(file);
  let n = 0;
  for (const r of records) {
    n++;
    if (!out.write(`${JSON.stringify(r)}\n`))
      await new Promise<void>((resolve) => {
        out.once("drain", () => resolve());
      });
  }
  await new Promise<void>((resolve) => {
    out.end(() => resolve());
  });
  return n;
}

/**
 * The baseline of the import benchmarks: the same rows as the import writes (trajectories, their
 * messages and tool calls, and their search documents as tsvector literals, cut by the same code)
 * COPYed into bare tables (no keys, no indexes) in one transaction, streamed in batches like the
 * import. Only the COPY calls are timed: reading the file and building the rows are not. The tables
 * are dropped afterwards. `compression` sets the compression of the text and tsvector columns
 * (default: the server's, pglz), for comparing like with like where the app's tables use lz4.
 */
export async function rawCopy(
  file: string,
  opts: { compression?: "lz4" } = {},
): Promise<{ seconds: number; rows: number }> {
  const text = opts.compression ? `text COMPRESSION ${opts.compression}` : "text";
  const tsvector = opts.compression ? `tsvector COMPRESSION ${opts.compression}` : "tsvector";
  await transaction(async (sql) => {
    await sql.query(
      `CREATE TABLE bench_trajectory (id int, external_id text, benchmark text, model text, task text, network ` +
        `bool, prompt text, run int, resolved bool, metadata jsonb, step_count int, message_count int)`,
    );
    await sql.query(
      `CREATE TABLE bench_message (t int, seq int, step int, role text, content ${text}, reasoning ${text}, ` +
        `tool_call_id text, exit_code int)`,
    );
    await sql.query(
      `CREATE TABLE bench_tool_call (t int, message_seq int, step int, seq int, call_id text, name text, input ` +
        `${text}, input_is_json bool)`,
    );
    await sql.query(`CREATE TABLE bench_search (t int, commands ${tsvector}, outputs ${tsvector})`);
  });
  let seconds = 0,
    rows = 0;
  await transaction(async (sql) => {
    let trajectories: unknown[][] = [],
      messages: unknown[][] = [],
      calls: unknown[][] = [],
      documents: unknown[][] = [];
    const flush = async () => {
      const t = performance.now();
      await sql.copy(
        "bench_trajectory",
        [
          "id",
          "external_id",
          "benchmark",
          "model",
          "task",
          "network",
          "prompt",
          "run",
          "resolved",
          "metadata",
          "step_count",
          "message_count",
        ],
        trajectories,
      );
      await sql.copy(
        "bench_message",
        ["t", "seq", "step", "role", "content", "reasoning", "tool_call_id", "exit_code"],
        messages,
      );
      await sql.copy(
        "bench_tool_call",
        ["t", "message_seq", "step", "seq", "call_id", "name", "input", "input_is_json"],
        calls,
      );
      await sql.copy("bench_search", ["t", "commands", "outputs"], documents);
      seconds += (performance.now() - t) / 1000;
      rows += trajectories.length + messages.length + calls.length + documents.length;
      trajectories = [];
      messages = [];
      calls = [];
      documents = [];
    };
    for await (const line of readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })) {
      if (!line) continue;
      const t = JSON.parse(line) as {
        id: string;
        benchmark: string;
        model: string;
        task: { id: string };
        network: boolean;
        prompt: string;
        run: number;
        resolved: boolean;
        metadata?: unknown;
        turns: Turn[];
      };
      const id = Number(t.id.slice(6));
      const { messages: numbered, stepCount } = numberSteps(t.turns);
      trajectories.push([
        id,
        t.id,
        t.benchmark,
        t.model,
        t.task.id,
        t.network,
        t.prompt,
        t.run,
        t.resolved,
        t.metadata ?? {},
        stepCount,
        numbered.length,
      ]);
      const search = new SearchDocument();
      for (const m of numbered) {
        messages.push([id, m.seq, m.step, m.role, m.content, m.reasoning, m.toolCallId, m.exitCode]);
        for (const c of m.toolCalls) calls.push([id, m.seq, m.step, c.seq, c.callId, c.name, c.input, c.inputIsJson]);
        search.addMessage(
          m.role,
          m.content,
          m.toolCalls.map((c) => c.input),
        );
      }
      const { commands, outputs } = search.vectors();
      documents.push([id, commands, outputs]);
      if (messages.length > 40_000) await flush();
    }
    await flush();
  });
  await transaction(async (sql) => {
    await sql.query(`DROP TABLE bench_trajectory, bench_message, bench_tool_call, bench_search`);
  });
  return { seconds, rows };
}

/**
 * The same trajectory as an Inspect AI sample (inspect_ai's log schema): messages with `tool_calls`
 * of `{id, function, arguments}`, reasoning as a content part, tool messages answering by id.
 */
export function inspectSample(record: Record<string, unknown>, id: string): Record<string, unknown> {
  const turns = record.turns as Turn[];
  const messages = turns.map((t) => {
    if (t.role === "assistant")
      return {
        role: "assistant",
        content: [
          ...(t.reasoning ? [{ type: "reasoning", reasoning: t.reasoning }] : []),
          { type: "text", text: t.content ?? "" },
        ],
        tool_calls: (t.tool_calls ?? []).map((c) => ({ id: c.id, function: c.name, arguments: { cmd: c.input } })),
      };
    if (t.role === "tool") return { role: "tool", tool_call_id: t.tool_call_id, function: "bash", content: t.content };
    return { role: t.role, content: t.content };
  });
  return { id, epoch: 1, input: "", target: "", messages, scores: { bench: { value: record.resolved ? 1 : 0 } } };
}

/** Writes an Inspect `.eval` archive (header.json and samples/<id>_epoch_1.json) of the samples given. */
export async function writeEval(file: string, samples: Iterable<Record<string, unknown>>): Promise<void> {
  const { ZipFile } = await import("yazl");
  const zip = new ZipFile();
  const done = new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(fs.createWriteStream(file)).on("close", resolve).on("error", reject);
  });
  const header = { version: 2, status: "success", eval: { task: "bench_inspect", model: "bench/inspect-model" } };
  zip.addBuffer(Buffer.from(JSON.stringify(header)), "header.json");
  for (const s of samples) zip.addBuffer(Buffer.from(JSON.stringify(s)), `samples/${String(s.id)}_epoch_1.json`);
  zip.end();
  await done;
}

/**
 * Task records for the corpus's tasks (`owner__repo-K`, one per 72 trajectories): a reference patch
 * of a few lines of the corpus's own words, so the evidence rules read every output as they would
 * on real runs, and a filing date before the dated commits an output might show.
 */
export function* taskRecords(trajectories: number, rand: () => number): Generator<Record<string, unknown>> {
  for (let k = 0; k * 72 < trajectories; k++) {
    const added = Array.from({ length: 6 }, () => `+    ${words(40, rand).replaceAll("\n", " ")}`);
    yield {
      type: "task",
      instance_id: `owner__repo-${k}`,
      repo: "owner/repo",
      created_at: "2024-01-01T00:00:00Z",
      patch: [
        "diff --git a/src/mod.py b/src/mod.py",
        "--- a/src/mod.py",
        "+++ b/src/mod.py",
        "@@ -1,1 +1,6 @@",
        "-    pass",
        ...added,
      ].join("\n"),
    };
  }
}
