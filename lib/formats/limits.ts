// The bounds an import reads within: one record's worth of text at a time, expansion bounded.
import { config, RECORD_MEMORY_FACTOR } from "@/lib/config";
import { recordUnit } from "./audit";
import { mostWeight, type TextWeigher } from "./weight";

export type ReadLimits = {
  /** The longest JSON Lines line, or JSON record (an element of an array, or a whole document). */
  maxRecordBytes: number;
  maxDecompressedBytes: number;
  /** A compressed file may expand to at most this many times its size. */
  maxGzipRatio: number;
  /** An archive (an Inspect `.eval`) may list at most this many entries; unset: MAX_ARCHIVE_ENTRIES. */
  maxArchiveEntries?: number;
};

/** The most entries an archive may list (500 samples × 10 epochs is about 5,000). */
export const MAX_ARCHIVE_ENTRIES = 100_000;

export function readLimits(): ReadLimits {
  const c = config();
  return {
    maxRecordBytes: c.IMPORT_MAX_RECORD_BYTES,
    maxDecompressedBytes: c.IMPORT_MAX_DECOMPRESSED_BYTES,
    maxGzipRatio: c.IMPORT_MAX_GZIP_RATIO,
  };
}

/** The memory an import may hold, reserved before it starts: the heaviest record's weight × RECORD_MEMORY_FACTOR. */
export function importMemory(
  files: ReadonlyArray<{ name: string; bytes: number; weight?: number }>,
  limits: ReadLimits,
): number {
  return files.reduce(
    (sum, f) =>
      sum +
      RECORD_MEMORY_FACTOR *
        (/\.(gz|eval|zip)$/i.test(f.name)
          ? limits.maxRecordBytes
          : Math.min(f.weight ?? mostWeight(f.bytes), limits.maxRecordBytes)),
    0,
  );
}

/** What a file as it arrived weighs at most as one record: its heaviest line (JSON Lines) or its whole. */
export const fileWeight = (name: string, weighed: TextWeigher) =>
  recordUnit(name) === "line" ? weighed.lineWeight : weighed.weight;
