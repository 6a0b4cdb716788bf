// Reads one import file as a stream of records, whatever its format: the app's JSONL (line by line,
// so memory stays bounded whatever the file's size), a JSON record or array of records, or an agent
// harness's file (converted by lib/import). `.gz` is read through gunzip. Every problem becomes an
// error record with its line (JSONL) or record number (JSON array), never an exception.
import fs from "node:fs";
import readline from "node:readline";
import { createGunzip } from "node:zlib";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { detectFormat, KNOWN_FORMATS, readHarness, type HarnessFormat } from "@/lib/import/detect";
import { draftToRecord, type Condition } from "@/lib/import/condition";
import type { ResolvedLookup } from "@/lib/import/resolved";
import type { RawRecord } from "@/lib/data/imports";

export type ReadOptions = {
  condition: Condition;
  resolved: ResolvedLookup | null;
  /** Called with the compressed bytes read so far. */
  onBytes?: (bytes: number) => void;
  /** Fed every byte of the file as it is read (its checksum, without a second pass). */
  hash?: { update(chunk: Buffer): unknown };
};

const GZIP_MAGIC = [0x1f, 0x8b];

async function isGzip(file: string): Promise<boolean> {
  const fd = await fs.promises.open(file, "r");
  try {
    const { buffer, bytesRead } = await fd.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1];
  } finally {
    await fd.close();
  }
}

/** The file's text as a stream (through gunzip when compressed), counting the bytes read. */
async function openText(file: string, opts: Pick<ReadOptions, "onBytes" | "hash">): Promise<Readable> {
  const gzip = await isGzip(file);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      opts.hash?.update(chunk);
      opts.onBytes?.(bytes);
      done(null, chunk);
    },
  });
  const raw = fs.createReadStream(file);
  // pipeline() destroys every stage on error; the consumer sees the error through the last one.
  if (gzip) {
    const gunzip = createGunzip();
    pipeline(raw, counter, gunzip).catch(() => {});
    return gunzip;
  }
  pipeline(raw, counter).catch(() => {});
  return counter;
}

/** The JSON text's parse error, short: where and what. */
function jsonError(e: unknown): string {
  return `not valid JSON: ${e instanceof Error ? e.message.replace(/^JSON\.parse: /, "") : String(e)}`.slice(0, 300);
}

/** One parsed value as records: interchange records pass through; harness documents become a trajectory. */
function* fromValue(value: unknown, line: number, file: string, opts: ReadOptions, bytes: number): Generator<RawRecord> {
  const format = detectFormat(value);
  if (format === null) {
    yield { line, bytes, errors: [{ field: null, message: `unknown format: expected ${KNOWN_FORMATS}` }] };
    return;
  }
  if (format === "interchange") {
    yield { line, bytes, value };
    return;
  }
  if (format === "interchange-list") {
    let i = 0;
    for (const item of value as unknown[]) yield { line: ++i, bytes: 0, value: item };
    return;
  }
  let draft;
  try {
    draft = readHarness(format as HarnessFormat, value);
  } catch (e) {
    yield { line, bytes, errors: [{ field: null, message: `${format} file could not be read: ${e instanceof Error ? e.message : String(e)}` }] };
    return;
  }
  const record = draftToRecord(draft, opts.condition, file, opts.resolved);
  yield record.ok ? { line, bytes, value: record.value, format: draft.format } : { line, bytes, errors: record.errors };
}

export type FileShape = { unit: "line" | "record" };

/** JSONL files (by name) are read line by line; anything else is parsed whole, falling back to lines. */
export function fileShape(file: string): FileShape {
  return { unit: /\.jsonl(\.gz)?$/i.test(file) ? "line" : "record" };
}

export async function* readRecords(file: string, opts: ReadOptions): AsyncGenerator<RawRecord> {
  if (fileShape(file).unit === "line") {
    yield* readLines(file, opts);
    return;
  }
  const stream = await openText(file, opts);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // A JSONL file without the .jsonl name: several lines that each parse.
    const lines = text.split("\n").filter((l) => l.trim());
    if (lines.length > 1 && isJson(lines[0]!)) {
      yield* readLines(file, opts);
      return;
    }
    yield { line: 1, bytes: text.length, errors: [{ field: null, message: jsonError(e) }] };
    return;
  }
  yield* fromValue(value, 1, file, opts, text.length);
}

function isJson(s: string): boolean {
  try { JSON.parse(s); return true; } catch { return false; }
}

async function* readLines(file: string, opts: ReadOptions): AsyncGenerator<RawRecord> {
  const lines = readline.createInterface({ input: await openText(file, opts), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    n += 1;
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      yield { line: n, bytes: text.length, errors: [{ field: null, message: jsonError(e) }] };
      continue;
    }
    if (Array.isArray(value)) {
      yield { line: n, bytes: text.length, errors: [{ field: null, message: "a JSONL line must hold one record (an object), not a list" }] };
      continue;
    }
    yield* fromValue(value, n, file, opts, text.length);
  }
}
