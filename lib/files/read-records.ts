// Reads one import file as a stream of records, whatever its format: the app's JSONL (line by line),
// a JSON array of records (element by element, with stream-json), one JSON document, or an agent
// harness's file (converted by lib/import). The file is read once (open-text.ts: gunzip, limits,
// checksum) and memory stays bounded whatever it holds: a line or record over the record limit is an
// error. Every problem becomes an error record with its line (JSONL) or record number (JSON array),
// never an exception.
import streamArray from "stream-json/streamers/stream-array.js";
import { detectFormat, KNOWN_FORMATS, readHarness, type HarnessFormat } from "@/lib/import/detect";
import { draftToRecord, type Condition } from "@/lib/import/condition";
import { recordType } from "@/lib/import/interchange";
import { isObj } from "@/lib/import/formats/common";
import type { ResolvedLookup } from "@/lib/import/resolved";
import type { RawRecord } from "@/lib/import/interchange";
import { formatBytes } from "@/lib/format";
import type { ReadLimits } from "./limits";
import { splitLines, type Line } from "./lines";
import { LimitExceeded, openText, type TextOptions } from "./open-text";

export type ReadOptions = TextOptions & { condition: Condition; resolved: ResolvedLookup | null };

/** The JSON text's parse error, short: where and what. */
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
function* fromValue(
  value: unknown,
  line: number,
  file: string,
  opts: ReadOptions,
  bytes: number,
): Generator<RawRecord> {
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
  let draft: ReturnType<typeof readHarness>;
  try {
    draft = readHarness(format as HarnessFormat, value);
  } catch (e) {
    const message = `${format} file could not be read: ${e instanceof Error ? e.message : String(e)}`;
    yield { line, bytes, errors: [{ field: null, message }] };
    return;
  }
  const record = draftToRecord(draft, opts.condition, file, opts.resolved);
  yield record.ok ? { line, bytes, value: record.value, format: draft.format } : { line, bytes, errors: record.errors };
}

export type FileShape = { unit: "line" | "record" };

/** JSONL files (by name) are read line by line; anything else by what it holds. */
export function fileShape(file: string): FileShape {
  return { unit: /\.jsonl(\.gz)?$/i.test(file) ? "line" : "record" };
}

const tooLong = (line: Line & { tooLong: true }, limits: ReadLimits) =>
  `this line is over the record limit of ${formatBytes(limits.maxRecordBytes)} (IMPORT_MAX_RECORD_BYTES); ` +
  `${line.bytes >= limits.maxRecordBytes ? "at least " : ""}${formatBytes(line.bytes)}`;

export async function* readRecords(file: string, opts: ReadOptions): AsyncGenerator<RawRecord> {
  const text = await openText(file, opts);
  try {
    if (fileShape(file).unit === "line") {
      yield* readLines(splitLines(text, opts.limits.maxRecordBytes), file, opts);
      return;
    }
    // Not named .jsonl: a JSON array (streamed), a document on one line or many, or JSON Lines.
    const { first, chunks } = await firstByte(text);
    if (first === null) {
      yield { line: 1, bytes: 0, errors: [{ field: null, message: "the file is empty" }] };
      return;
    }
    if (first === "[") {
      yield* readArray(chunks, file, opts);
      return;
    }
    const lines = splitLines(chunks, opts.limits.maxRecordBytes);
    const head = await lines.next();
    if (head.done) return;
    if (head.value.tooLong || parses(head.value.text)) yield* readLines(withFirst(head.value, lines), file, opts);
    else yield* readDocument(head.value.text, lines, file, opts);
  } catch (e) {
    yield readFailure(e, 1);
  } finally {
    text.destroy();
  }
}

/** The first byte that is not white space, and every chunk (those read to find it included). */
async function firstByte(
  stream: AsyncIterable<Buffer>,
): Promise<{ first: string | null; chunks: AsyncIterable<Buffer> }> {
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
  return { first, chunks: chunks() };
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
async function* readLines(lines: AsyncIterable<Line>, file: string, opts: ReadOptions): AsyncGenerator<RawRecord> {
  let n = 0;
  try {
    for await (const l of lines) {
      n = l.number;
      if (l.tooLong) {
        yield { line: n, bytes: l.bytes, errors: [{ field: null, message: tooLong(l, opts.limits) }] };
        continue;
      }
      if (!l.text.trim()) continue;
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
      yield* fromValue(value, n, file, opts, l.text.length);
    }
  } catch (e) {
    yield readFailure(e, n + 1);
  }
}

/** One JSON document over several lines, held whole (up to the record limit) and parsed at once. */
async function* readDocument(
  first: string,
  rest: AsyncIterable<Line>,
  file: string,
  opts: ReadOptions,
): AsyncGenerator<RawRecord> {
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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    yield { line: 1, bytes: text.length, errors: [{ field: null, message: jsonError(e) }] };
    return;
  }
  yield* fromValue(value, 1, file, opts, text.length);
}

/**
 * A JSON array, element by element (stream-json). An array of the app's records streams, each
 * element a record numbered from 1; any other array (an agent's list of messages or events) is one
 * document, held whole up to the record limit. No element may be larger than the record limit.
 */
async function* readArray(chunks: AsyncIterable<Buffer>, file: string, opts: ReadOptions): AsyncGenerator<RawRecord> {
  const max = opts.limits.maxRecordBytes;
  let sinceElement = 0;
  let total = 0;
  const elements = streamArray.withParserAsStream();
  const feed = (async () => {
    for await (const chunk of chunks) {
      sinceElement += chunk.length;
      total += chunk.length;
      if (sinceElement > max) {
        throw new LimitExceeded(
          `a record of this JSON array is over the record limit of ${formatBytes(max)} (IMPORT_MAX_RECORD_BYTES)`,
        );
      }
      if (!elements.write(chunk))
        await new Promise((resolve) => elements.once("drain", resolve).once("close", resolve));
    }
    elements.end();
  })();
  // A failure of the feed (a limit, a read error) ends the elements' stream with that error.
  let feedFailed = false;
  feed.catch((e: Error) => {
    feedFailed = true;
    elements.destroy(e);
  });

  let streaming: boolean | null = null;
  const held: unknown[] = [];
  let index = 0;
  try {
    for await (const { value } of elements as AsyncIterable<{ key: number; value: unknown }>) {
      index += 1;
      const bytes = sinceElement;
      sinceElement = 0;
      streaming ??= isObj(value) && recordType(value) !== null;
      if (streaming) {
        yield { line: index, bytes, value };
        continue;
      }
      if (total > max)
        throw new LimitExceeded(
          `this JSON document is over the record limit of ${formatBytes(max)} (IMPORT_MAX_RECORD_BYTES)`,
        );
      held.push(value);
    }
    await feed;
  } catch (e) {
    yield feedFailed
      ? readFailure(e, index + 1)
      : { line: index + 1, bytes: 0, errors: [{ field: null, message: jsonError(e) }] };
    return;
  } finally {
    elements.destroy();
  }
  if (!streaming) yield* fromValue(held, 1, file, opts, total);
}
