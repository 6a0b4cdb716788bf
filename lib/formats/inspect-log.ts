// Inspect AI logs sample by sample (decision 23), every expansion bounded.
import fs from "node:fs";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import chain from "stream-chain";
import pick from "stream-json/filters/pick.js";
import streamValues from "stream-json/streamers/stream-values.js";
import yauzl from "yauzl";
import { formatBytes } from "@/lib/domain/format";
import { isObj } from "@/lib/formats/agents/common";
import { type InspectEval, inspectEval, readInspectSample } from "@/lib/formats/agents/inspect";
import type { RawRecord } from "@/lib/formats/interchange";
import { type FileRead, harnessRecord } from "./harness-record";
import { streamedValues } from "./json-stream";
import { MAX_ARCHIVE_ENTRIES } from "./limits";
import { LimitExceeded } from "./open-text";
import { weightProblem } from "./weight";

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** An Inspect `.eval` archive: by name, or a zip by its first bytes. */
export async function isEvalArchive(file: string): Promise<boolean> {
  if (/\.eval$/i.test(file)) return true;
  const fd = await fs.promises.open(file, "r");
  try {
    const { buffer, bytesRead } = await fd.read(Buffer.alloc(4), 0, 4, 0);
    return bytesRead === 4 && buffer.equals(ZIP_MAGIC);
  } finally {
    await fd.close();
  }
}

/** The head of a `.json` Inspect log: `{"version": N, "status": ...` (how inspect_ai writes it). */
export const INSPECT_JSON_HEAD = /^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:/;

/** One sample as a record; a sample that cannot be read is an error for its record, not for the file. */
export function sampleRecord(
  sample: unknown,
  header: InspectEval,
  n: number,
  bytes: number,
  read: FileRead,
): RawRecord {
  try {
    return harnessRecord(readInspectSample(sample, header), n, bytes, read);
  } catch (e) {
    const message = `this Inspect sample could not be read: ${e instanceof Error ? e.message : String(e)}`;
    return { line: n, bytes, errors: [{ field: null, message }] };
  }
}

/** A `.json` log: its header, then each sample as a record numbered from 1. */
export async function* readInspectJson(chunks: AsyncIterable<Buffer>, read: FileRead): AsyncGenerator<RawRecord> {
  const pipeline = chain([pick.withParser({ filter: /^(eval|samples\.\d+)$/ }), streamValues()]);
  let header: InspectEval = inspectEval({});
  let n = 0;
  const max = read.opts.limits.maxRecordBytes;
  for await (const { value, bytes } of streamedValues(chunks, pipeline, max, "a sample of this Inspect log")) {
    if (isObj(value) && "model" in value && !("epoch" in value)) {
      header = inspectEval({ eval: value });
      continue;
    }
    n += 1;
    yield sampleRecord(value, header, n, bytes, read);
  }
  if (n === 0) yield { line: 1, bytes: 0, errors: [{ field: null, message: "this Inspect log holds no samples" }] };
}

type Zip = yauzl.ZipFile & { openReadStreamAsync: (e: yauzl.Entry) => Promise<Readable> };

async function openZip(file: string, maxEntries: number): Promise<{ zip: Zip; entries: yauzl.Entry[] }> {
  const zip = (await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (e, z) => (e ? reject(e) : resolve(z))),
  )) as Zip;
  zip.openReadStreamAsync = promisify(zip.openReadStream.bind(zip)) as Zip["openReadStreamAsync"];
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    let listed = 0;
    zip.on("entry", (e: yauzl.Entry) => {
      if (KEPT.test(e.fileName)) entries.push(e);
      if (++listed > maxEntries) {
        zip.close();
        reject(new LimitExceeded(`this archive has more than ${maxEntries.toLocaleString("en-US")} entries`));
        return;
      }
      zip.readEntry();
    });
    zip.once("end", resolve);
    zip.once("error", reject);
    zip.readEntry();
  });
  return { zip, entries };
}

/** One entry's bytes, within the record limit and the expansion ratio (yauzl checks the sizes are true). */
async function entryText(zip: Zip, entry: yauzl.Entry, read: FileRead): Promise<string> {
  const { maxRecordBytes, maxGzipRatio } = read.opts.limits;
  if (entry.uncompressedSize > maxRecordBytes)
    throw new LimitExceeded(
      `${entry.fileName} is over the record limit of ${formatBytes(maxRecordBytes)} (IMPORT_MAX_RECORD_BYTES): ` +
        formatBytes(entry.uncompressedSize),
    );
  if (entry.uncompressedSize > Math.max(entry.compressedSize, 1024) * maxGzipRatio)
    throw new LimitExceeded(
      `${entry.fileName} would expand ${Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1))} ` +
        `times (a decompression bomb; the limit is ${maxGzipRatio}, IMPORT_MAX_GZIP_RATIO)`,
    );
  const parts: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamAsync(entry)) parts.push(chunk as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  // Read, not yet parsed: what it holds is counted first (lib/formats/weight.ts).
  const heavy = weightProblem(text, maxRecordBytes);
  if (heavy) throw new LimitExceeded(`${entry.fileName} is too heavy: ${heavy}`);
  return text;
}

const SAMPLE = /^samples\/(.+)_epoch_(\d+)\.json$/;
const KEPT = /^(header\.json|_journal\/start\.json|samples\/.+_epoch_\d+\.json)$/;
const sampleOrder = (a: yauzl.Entry, b: yauzl.Entry) => a.fileName.localeCompare(b.fileName, "en", { numeric: true });

/** An `.eval` archive: its header, then each sample entry as a record numbered from 1 (in name order). */
export async function* readEvalArchive(file: string, read: FileRead): AsyncGenerator<RawRecord> {
  const { zip, entries } = await openZip(file, read.opts.limits.maxArchiveEntries ?? MAX_ARCHIVE_ENTRIES);
  try {
    const { maxDecompressedBytes } = read.opts.limits;
    const total = entries.reduce((n, e) => n + e.uncompressedSize, 0);
    if (total > maxDecompressedBytes)
      throw new LimitExceeded(
        `this archive would expand to ${formatBytes(total)}, over ${formatBytes(maxDecompressedBytes)} ` +
          `(IMPORT_MAX_DECOMPRESSED_BYTES)`,
      );
    const head =
      entries.find((e) => e.fileName === "header.json") ?? entries.find((e) => e.fileName === "_journal/start.json");
    const header = head ? inspectEval(JSON.parse(await entryText(zip, head, read))) : inspectEval({});
    const samples = entries.filter((e) => SAMPLE.test(e.fileName)).sort(sampleOrder);
    if (!samples.length) {
      yield { line: 1, bytes: 0, errors: [{ field: null, message: "this .eval archive holds no samples/*.json" }] };
      return;
    }
    let done = 0;
    // The next entry is inflated while this one is converted (one ahead, so memory holds two samples).
    const text = (k: number) => {
      const p = entryText(zip, samples[k]!, read);
      p.catch(() => {}); // awaited in its turn below
      return p;
    };
    let next = text(0);
    for (const [i, entry] of samples.entries()) {
      let sample: unknown;
      try {
        const current = next;
        if (i + 1 < samples.length) next = text(i + 1);
        sample = JSON.parse(await current);
      } catch (e) {
        const message =
          e instanceof LimitExceeded
            ? e.message
            : `${entry.fileName} could not be read: ${e instanceof Error ? e.message : String(e)}`;
        yield { line: i + 1, bytes: entry.compressedSize, errors: [{ field: null, message }] };
        continue;
      }
      done += entry.compressedSize;
      read.opts.onBytes?.(done);
      yield sampleRecord(sample, header, i + 1, entry.uncompressedSize, read);
    }
  } finally {
    zip.close();
  }
}
