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
};

/** The limits this process is configured with. */
export function readLimits(): ReadLimits {
  const c = config();
  return {
    maxRecordBytes: c.IMPORT_MAX_RECORD_BYTES,
    maxDecompressedBytes: c.IMPORT_MAX_DECOMPRESSED_BYTES,
    maxGzipRatio: c.IMPORT_MAX_GZIP_RATIO,
  };
}
