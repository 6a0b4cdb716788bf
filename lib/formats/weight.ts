// What a record weighs while imported (decision 46): its bytes plus VALUE_WEIGHT a value, counted before parsing.
import { formatBytes } from "@/lib/domain/format";

/** What one value counts as besides its bytes (`npm run bench:uploads`). */
export const VALUE_WEIGHT = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Counts JSON values as text streams by their separators outside strings; a string costs one quote search. */
export class ValueCounter {
  values = 0;
  private inString = false;
  /** An odd run of backslashes ended the last chunk inside a string: the next byte is escaped. */
  private escaped = false;

  /** Counts the values of `chunk` (bytes or text), from where the last chunk left off. */
  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === "string";
    const at = (i: number) => (text ? chunk.charCodeAt(i) : chunk[i]!);
    const find = (from: number) => (text ? chunk.indexOf('"', from) : (chunk as Uint8Array).indexOf(QUOTE, from));
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i += 1;
          continue;
        }
        const q = find(i);
        if (q === -1) {
          // The chunk ends inside the string: whether its last backslashes escape what comes next.
          this.escaped = trailingBackslashes(at, i, n) % 2 === 1;
          return;
        }
        if (trailingBackslashes(at, i, q) % 2 === 0) this.inString = false;
        i = q + 1;
        continue;
      }
      const c = at(i);
      if (c === QUOTE) this.inString = true;
      else if (c === 0x7b || c === 0x5b || c === 0x3a || c === 0x2c) this.values += 1;
      i += 1;
    }
  }

  /** Starts counting a new record (a new line): a line never ends inside a string of valid JSON. */
  reset(): void {
    this.values = 0;
    this.inString = false;
    this.escaped = false;
  }
}

/** The backslashes just before `end`, back to `from` at most. */
function trailingBackslashes(at: (i: number) => number, from: number, end: number): number {
  let k = 0;
  while (end - 1 - k >= from && at(end - 1 - k) === BACKSLASH) k += 1;
  return k;
}

export const weightOf = (bytes: number, values: number) => bytes + VALUE_WEIGHT * values;

export function countValues(text: Uint8Array | string): number {
  const counter = new ValueCounter();
  counter.push(text);
  return counter.values;
}

/** The most a text of `bytes` can weigh (`[0,0,…]`): below the limit's share none needs counting. */
export const mostWeight = (bytes: number) => bytes * (1 + VALUE_WEIGHT / 2);

/** Why a record of `bytes` bytes holding `values` values is over `limit`, or null when it is within it. */
export function overWeight(bytes: number, values: number, limit: number, format: (n: number) => string = formatBytes) {
  const weight = weightOf(bytes, values);
  if (weight <= limit) return null;
  return (
    `it holds ${values.toLocaleString("en-US")} values in ${format(bytes)}, which weigh ${format(weight)} ` +
    `as an import holds them (each value counts as ${VALUE_WEIGHT} bytes besides its text): over the record limit ` +
    `of ${format(limit)} (IMPORT_MAX_RECORD_BYTES)`
  );
}

/** Weighs a streaming text (an upload): its heaviest line and its whole, before it is read (limits.ts). */
export class TextWeigher {
  private readonly counter = new ValueCounter();
  private lineBytes = 0;
  private allValues = 0;
  bytes = 0;
  heaviestLine = 0;

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    this.take(chunk.subarray(start));
  }

  /** The heaviest line, once the text has ended (a last line without a newline counts). */
  get lineWeight(): number {
    return Math.max(this.heaviestLine, weightOf(this.lineBytes, this.counter.values));
  }

  /** The whole text's weight: what a document read whole, or a list of records, can weigh at most. */
  get weight(): number {
    return weightOf(this.bytes, this.allValues + this.counter.values);
  }

  private take(part: Uint8Array): void {
    this.lineBytes += part.length;
    this.counter.push(part);
  }

  private endLine(): void {
    this.heaviestLine = Math.max(this.heaviestLine, weightOf(this.lineBytes, this.counter.values));
    this.allValues += this.counter.values;
    this.lineBytes = 0;
    this.counter.reset();
  }
}

/** Why a record's text is over the record limit by what it holds, or null. */
export function weightProblem(text: string, limit: number): string | null {
  if (mostWeight(text.length) <= limit) return null;
  return overWeight(text.length, countValues(text), limit, formatBytes);
}
