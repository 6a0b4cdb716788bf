// A kept page gzipped once, sent with a fresh nonce as stored blocks between deflated pieces (RFC 1951, 1952).
import { promisify } from "node:util";
import { constants, crc32, deflateRaw } from "node:zlib";

const deflating = promisify(deflateRaw);

/** The gzip member's header: deflate, no name, no time, unknown OS. */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** An empty stored block marked last: the deflate stream's end. */
const LAST = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const STORED_MAX = 0xffff;

/** The body's pieces between places `at` (`gap` bytes each), deflated on the libuv pool. */
export async function deflatePieces(body: Buffer, at: readonly number[], gap: number): Promise<Buffer[]> {
  const starts = [0, ...at.map((i) => i + gap)];
  const ends = [...at, body.length];
  return Promise.all(
    starts.map((from, k) => deflating(body.subarray(from, ends[k]), { level: 6, finishFlush: constants.Z_FULL_FLUSH })),
  );
}

function stored(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let from = 0; from < bytes.length; from += STORED_MAX) {
    const part = bytes.subarray(from, from + STORED_MAX);
    const head = Buffer.alloc(5);
    head.writeUInt16LE(part.length, 1);
    head.writeUInt16LE(~part.length & 0xffff, 3);
    blocks.push(head, part);
  }
  return blocks;
}

/** The gzip of `body` with `fill` in each place, from the pieces, its CRC taken piece by piece (no copy). */
export function splicedGzip(pieces: readonly Buffer[], body: Buffer, at: readonly number[], fill: Buffer): Buffer {
  if (pieces.length !== at.length + 1) throw new Error("a piece between every two places, and one at each end");
  const gap = fill.length;
  const parts: Buffer[] = [HEADER];
  const fillBlocks = stored(fill);
  let crc = 0;
  let from = 0;
  pieces.forEach((piece, k) => {
    parts.push(piece);
    if (k < at.length) {
      parts.push(...fillBlocks);
      crc = crc32(fill, crc32(body.subarray(from, at[k]), crc));
      from = at[k]! + gap;
    }
  });
  crc = crc32(body.subarray(from), crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(body.length % 2 ** 32, 4);
  parts.push(LAST, trailer);
  return Buffer.concat(parts);
}
