// One import file as a stream of records, whatever its format, in bounded memory; problems are error records.
import fs from "node:fs";
import streamArray from "stream-json/streamers/stream-array.js";
import { formatBytes } from "@/lib/domain/format";
import type { TrajectoryDraft } from "@/lib/formats/agents/common";
import { isObj } from "@/lib/formats/agents/common";
import { inspectEval } from "@/lib/formats/agents/inspect";
import { recordUnit } from "@/lib/formats/audit";
import { detectFormat, type HarnessFormat, readHarness, unknownFormat } from "@/lib/formats/detect";
import type { RawRecord } from "@/lib/formats/interchange";
import { recordType } from "@/lib/formats/interchange";
import { type FileRead, fileRead, harnessRecord, type ReadOptions } from "./harness-record";
import { INSPECT_JSON_HEAD, isEvalArchive, readEvalArchive, readInspectJson, sampleRecord } from "./inspect-log";
import { ReadFailed, streamedValues } from "./json-stream";
import type { ReadLimits } from "./limits";
import { type Line, splitLines } from "./lines";
import { LimitExceeded, openText } from "./open-text";
import { weightProblem } from "./weight";

export type { ReadOptions };

function jsonError(e: unknown): string {
  return `not valid JSON: ${e instanceof Error ? e.message.replace(/^JSON\.parse: /, "") : String(e)}`.slice(0, 300);
}

/** What a failed read (a limit, a corrupt gzip stream) says as an error record. */
function readFailure(e: unknown, line: number): RawRecord {
  const message =
    e instanceof LimitExceeded
      ? e.message
      : `the file could not be read past this point: ${e instanceof Error ? e.message : String(e)}`;
  return { line, errors: [{ field: null, message }] };
}

/** One parsed value as records: interchange records pass through; harness documents become a trajectory. */
function* fromValue(value: unknown, line: number, read: FileRead, bytes: number): Generator<RawRecord> {
  const format = detectFormat(value);
  if (format === null) {
    yield { line, bytes, errors: [{ field: null, message: unknownFormat(value) }] };
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
  if (format === "inspect-log") {
    // A small log that arrived whole (inside a .gz, say): its samples one by one all the same.
    const v = value as { samples?: unknown };
    const header = inspectEval(value);
    let i = 0;
    for (const sample of Array.isArray(v.samples) ? v.samples : []) yield sampleRecord(sample, header, ++i, 0, read);
    return;
  }
  let draft: TrajectoryDraft;
  try {
    draft = readHarness(format as HarnessFormat, value);
  } catch (e) {
    const message = `${format} file could not be read: ${e instanceof Error ? e.message : String(e)}`;
    yield { line, bytes, errors: [{ field: null, message }] };
    return;
  }
  yield harnessRecord(draft, line, bytes, read);
}

export type FileShape = { unit: "line" | "record" };

/** JSONL files (by name) are read line by line; anything else by what it holds. */
export function fileShape(file: string): FileShape {
  return { unit: recordUnit(file) };
}

const tooLong = (line: Line & { tooLong: true }, limits: ReadLimits) =>
  `this line is over the record limit of ${formatBytes(limits.maxRecordBytes)} (IMPORT_MAX_RECORD_BYTES); ` +
  `${line.bytes >= limits.maxRecordBytes ? "at least " : ""}${formatBytes(line.bytes)}`;

export async function* readRecords(file: string, opts: ReadOptions): AsyncGenerator<RawRecord> {
  const read = fileRead(file, opts);
  if (await isEvalArchive(file)) {
    yield* readArchive(file, read);
    return;
  }
  const text = await openText(file, opts);
  try {
    if (fileShape(file).unit === "line") {
      yield* readLines(splitLines(text, opts.limits.maxRecordBytes), read);
      return;
    }
    // Not named .jsonl: a JSON array (streamed), a document on one line or many, or JSON Lines.
    const { first, chunks, head: start } = await firstByte(text);
    if (first === null) {
      yield { line: 1, bytes: 0, errors: [{ field: null, message: "the file is empty" }] };
      return;
    }
    if (first === "[") {
      yield* readArray(chunks, read);
      return;
    }
    if (first === "{" && INSPECT_JSON_HEAD.test(start.toString("utf8"))) {
      yield* readInspect(chunks, read);
      return;
    }
    const lines = splitLines(chunks, opts.limits.maxRecordBytes);
    const head = await lines.next();
    if (head.done) return;
    // A first line too heavy to parse is read as a line (and refused as one), never parsed to find out.
    const line = head.value;
    if (line.tooLong || weightProblem(line.text, opts.limits.maxRecordBytes) || parses(line.text))
      yield* readLines(withFirst(line, lines), read);
    else yield* readDocument(line.text, lines, read);
  } catch (e) {
    yield readFailure(e, 1);
  } finally {
    text.destroy();
  }
}

/** An Inspect `.eval` archive, its checksum taken in a pass of its own (a zip is read out of order). */
async function* readArchive(file: string, read: FileRead): AsyncGenerator<RawRecord> {
  try {
    yield* readEvalArchive(file, read);
  } catch (e) {
    const message =
      e instanceof LimitExceeded
        ? e.message
        : `this Inspect .eval file could not be read as a zip archive: ${e instanceof Error ? e.message : String(e)}`;
    yield { line: 1, errors: [{ field: null, message }] };
  }
  if (read.opts.hash) for await (const chunk of fs.createReadStream(file)) read.opts.hash.update(chunk as Buffer);
}

async function* readInspect(chunks: AsyncIterable<Buffer>, read: FileRead): AsyncGenerator<RawRecord> {
  try {
    yield* readInspectJson(chunks, read);
  } catch (e) {
    yield e instanceof ReadFailed
      ? readFailure(e.reason, 1)
      : { line: 1, bytes: 0, errors: [{ field: null, message: jsonError(e) }] };
  }
}

/** The first byte that is not white space, and every chunk (those read to find it included). */
async function firstByte(
  stream: AsyncIterable<Buffer>,
): Promise<{ first: string | null; chunks: AsyncIterable<Buffer>; head: Buffer }> {
  const iterator = stream[Symbol.asyncIterator]();
  const seen: Buffer[] = [];
  let first: string | null = null;
  while (first === null) {
    const next = await iterator.next();
    if (next.done) break;
    seen.push(next.value);
    const at = next.value.findIndex((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
    if (at !== -1) first = String.fromCharCode(next.value[at]!);
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    yield* seen;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { first, chunks: chunks(), head: Buffer.concat(seen).subarray(0, 4096) };
}

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

async function* withFirst(first: Line, rest: AsyncGenerator<Line>): AsyncGenerator<Line> {
  yield first;
  yield* rest;
}

/** JSON Lines; a list on a line is refused (a file that starts with a list is read by readArray). */
async function* readLines(lines: AsyncIterable<Line>, read: FileRead): AsyncGenerator<RawRecord> {
  const { opts } = read;
  let n = 0;
  try {
    for await (const l of lines) {
      n = l.number;
      if (l.tooLong) {
        yield { line: n, bytes: l.bytes, errors: [{ field: null, message: tooLong(l, opts.limits) }] };
        continue;
      }
      if (!l.text.trim()) continue;
      const heavy = weightProblem(l.text, opts.limits.maxRecordBytes);
      if (heavy) {
        yield { line: n, bytes: l.text.length, errors: [{ field: null, message: `this line is too heavy: ${heavy}` }] };
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(l.text);
      } catch (e) {
        yield { line: n, bytes: l.text.length, errors: [{ field: null, message: jsonError(e) }] };
        continue;
      }
      if (Array.isArray(value)) {
        const message = "a JSONL line must hold one record (an object), not a list";
        yield { line: n, bytes: l.text.length, errors: [{ field: null, message }] };
        continue;
      }
      yield* fromValue(value, n, read, l.text.length);
    }
  } catch (e) {
    yield readFailure(e, n + 1);
  }
}

/** One JSON document over several lines, held whole (up to the record limit) and parsed at once. */
async function* readDocument(first: string, rest: AsyncIterable<Line>, read: FileRead): AsyncGenerator<RawRecord> {
  const { opts } = read;
  const parts = [first];
  let size = first.length;
  for await (const l of rest) {
    size += (l.tooLong ? l.bytes : l.text.length) + 1;
    if (l.tooLong || size > opts.limits.maxRecordBytes) {
      const message =
        `this JSON document is over the record limit of ${formatBytes(opts.limits.maxRecordBytes)} ` +
        `(IMPORT_MAX_RECORD_BYTES): split it, or write it as JSON Lines`;
      yield { line: 1, bytes: size, errors: [{ field: null, message }] };
      return;
    }
    parts.push(l.text);
  }
  const text = parts.join("\n");
  const heavy = weightProblem(text, opts.limits.maxRecordBytes);
  if (heavy) {
    yield {
      line: 1,
      bytes: text.length,
      errors: [{ field: null, message: `this JSON document is too heavy: ${heavy}` }],
    };
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    yield { line: 1, bytes: text.length, errors: [{ field: null, message: jsonError(e) }] };
    return;
  }
  yield* fromValue(value, 1, read, text.length);
}

/** A JSON array: the app's records one by one, numbered from 1; any other array is one document. */
async function* readArray(chunks: AsyncIterable<Buffer>, read: FileRead): AsyncGenerator<RawRecord> {
  const max = read.opts.limits.maxRecordBytes;
  let streaming: boolean | null = null;
  const held: unknown[] = [];
  let index = 0;
  let size = 0;
  try {
    const elements = streamedValues(chunks, streamArray.withParserAsStream(), max, "a record of this JSON array");
    for await (const { value, bytes, total } of elements) {
      index += 1;
      size = total;
      streaming ??= isObj(value) && recordType(value) !== null;
      if (streaming) {
        yield { line: index, bytes, value };
        continue;
      }
      if (total > max)
        throw new ReadFailed(
          new LimitExceeded(
            `this JSON document is over the record limit of ${formatBytes(max)} (IMPORT_MAX_RECORD_BYTES)`,
          ),
        );
      held.push(value);
    }
  } catch (e) {
    yield e instanceof ReadFailed
      ? readFailure(e.reason, index + 1)
      : { line: index + 1, bytes: 0, errors: [{ field: null, message: jsonError(e) }] };
    return;
  }
  if (!streaming) yield* fromValue(held, 1, read, size);
}
