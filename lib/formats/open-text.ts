// A file's text as a stream: gunzipped when its first bytes say so, within limits, counted and hashed.
import fs from "node:fs";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { formatBytes } from "@/lib/domain/format";
import type { ReadLimits } from "./limits";

export type TextOptions = {
  limits: ReadLimits;
  onBytes?: (bytes: number) => void;
  /** Fed every byte of the file as it is read (its checksum, without a second pass). */
  hash?: { update(chunk: Buffer): unknown };
};

/** A limit of ReadLimits was passed: the file is refused with this message. */
export class LimitExceeded extends Error {}

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

/** Passes bytes through, failing once more than `max` went by (what a compressed file expands to). */
function expansionGuard(max: number, tooMuch: () => string): Transform {
  let out = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      out += chunk.length;
      done(out > max ? new LimitExceeded(tooMuch()) : null, chunk);
    },
  });
}

/** A file's text as a stream (gunzipped when compressed, bounded in ratio and size), its bytes counted and hashed. */
export async function openText(file: string, opts: TextOptions): Promise<Readable> {
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
  if (!gzip) {
    pipeline(raw, counter).catch(() => {});
    return counter;
  }
  const { maxGzipRatio, maxDecompressedBytes } = opts.limits;
  const size = fs.statSync(file).size;
  const byRatio = Math.max(size * maxGzipRatio, 16 * 1024 * 1024);
  const max = Math.min(byRatio, maxDecompressedBytes);
  const guard = expansionGuard(max, () =>
    max === byRatio
      ? `decompression bomb: this ${formatBytes(size)} compressed file expands to more than ${maxGzipRatio} ` +
        `times its size ` +
        `(over ${formatBytes(max)}); refused (IMPORT_MAX_GZIP_RATIO)`
      : `the file expands to more than ${formatBytes(max)} when decompressed; refused (IMPORT_MAX_DECOMPRESSED_BYTES)`,
  );
  pipeline(raw, counter, createGunzip(), guard).catch(() => {});
  return guard;
}
