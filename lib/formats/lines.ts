// Lines from bytes holding at most one (decision 14): a longer one is reported with its size and skipped.

export type Line = { number: number } & ({ tooLong: false; text: string } | { tooLong: true; bytes: number });

const NEWLINE = 0x0a;
const CR = 0x0d;

function decode(parts: Buffer[], size: number): string {
  const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
  const end = buf.length && buf[buf.length - 1] === CR ? buf.length - 1 : buf.length;
  return buf.toString("utf8", 0, end);
}

/** The lines of `chunks`, each at most `maxBytes` long; a final line without a newline counts. */
export async function* splitLines(chunks: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let size = 0;
  let over = false;
  let number = 0;
  const end = (): Line => {
    number += 1;
    const line: Line = over
      ? { number, tooLong: true, bytes: size }
      : { number, tooLong: false, text: decode(parts, size) };
    parts = [];
    size = 0;
    over = false;
    return line;
  };
  const take = (piece: Buffer) => {
    size += piece.length;
    if (size > maxBytes) {
      over = true;
      parts = [];
    } else if (!over && piece.length) parts.push(piece);
  };
  for await (const raw of chunks) {
    const chunk = typeof raw === "string" ? Buffer.from(raw) : raw;
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      take(chunk.subarray(start, nl));
      yield end();
      start = nl + 1;
    }
    // Copied: a slice would keep the whole chunk alive.
    if (start < chunk.length) take(start === 0 ? chunk : Buffer.from(chunk.subarray(start)));
  }
  if (size > 0 || over) yield end();
}
