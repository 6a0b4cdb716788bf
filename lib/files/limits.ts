// The bounds an import reads within (README, Configuration): no file may make it hold more than
// one record's worth of text at a time, nor expand without end.
import { config } from "@/lib/config";

export type ReadLimits = {
  /** The longest JSON Lines line, or JSON record (an element of an array, or a whole document). */
  maxRecordBytes: number;
  /** The most text a compressed file may expand to. */
  maxDecompressedBytes: number;
  /** A compressed file may expand to at most this many times its size. */
  maxGzipRatio: number;
  /** An archive (an Inspect `.eval`) may list at most this many entries; unset: MAX_ARCHIVE_ENTRIES. */
  maxArchiveEntries?: number;
};

/**
 * The most entries an archive may list: a log of 500 samples × 10 epochs has about 5,000. Listing
 * reads each entry's directory record (time, not memory: only the header and samples are kept).
 */
export const MAX_ARCHIVE_ENTRIES = 100_000;

/** The limits this process is configured with. */
export function readLimits(): ReadLimits {
  const c = config();
  return {
    maxRecordBytes: c.IMPORT_MAX_RECORD_BYTES,
    maxDecompressedBytes: c.IMPORT_MAX_DECOMPRESSED_BYTES,
    maxGzipRatio: c.IMPORT_MAX_GZIP_RATIO,
  };
}
