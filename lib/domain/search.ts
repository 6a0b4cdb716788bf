// What search covers and how text becomes words (decisions 5 and 6); queries are cut the same way.

/** Characters of each command that search covers. */
export const COMMAND_PREFIX = 1000;
/** Characters at the start of each tool output that search covers. */
export const OUTPUT_PREFIX = 300;
/** Characters of one trajectory's document at most, each (a tsvector holds at most 1 MB). */
export const SEARCH_DOCUMENT_LIMIT = 64_000;

/** Starts of texts, one a line, up to SEARCH_DOCUMENT_LIMIT characters. */
class Document {
  private parts: string[] = [];
  private length = 0;

  add(text: string, prefix: number): void {
    if (this.length >= SEARCH_DOCUMENT_LIMIT || !text) return;
    const part = text.slice(0, Math.min(prefix, SEARCH_DOCUMENT_LIMIT - this.length));
    this.parts.push(part);
    this.length += part.length + 1;
  }

  text(): string {
    return this.parts.join("\n");
  }
}

export class SearchDocument {
  private readonly commands = new Document();
  private readonly outputs = new Document();

  addCommand(text: string): void {
    this.commands.add(text, COMMAND_PREFIX);
  }

  addOutput(text: string): void {
    this.outputs.add(text, OUTPUT_PREFIX);
  }

  /** One message, in trajectory order: its output (a tool message's content), then its commands. */
  addMessage(role: string, content: string, commands: readonly string[]): void {
    if (role === "tool") this.addOutput(content);
    for (const c of commands) this.addCommand(c);
  }

  texts(): { commands: string; outputs: string } {
    return { commands: this.commands.text(), outputs: this.outputs.text() };
  }

  vectors(): { commands: string; outputs: string } {
    return { commands: tsvector(this.commands.text()), outputs: tsvector(this.outputs.text()) };
  }
}

/** A word: Unicode letters, marks and digits, lower-cased; `mod_3.py` is mod, 3, py. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

/** Calls `word` with each word of the lower-cased text, in order: a scan with a fast path for ASCII. */
function eachWord(text: string, word: (w: string) => void): void {
  const low = text.toLowerCase();
  let start = -1;
  for (let i = 0; i < low.length; i++) {
    const c = low.charCodeAt(i);
    let inWord: boolean;
    let width = 1;
    if (c < 128) inWord = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    else {
      const cp = low.codePointAt(i)!;
      width = cp > 0xffff ? 2 : 1;
      inWord = WORD_CHAR.test(String.fromCodePoint(cp));
    }
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      word(low.slice(start, i));
      start = -1;
    }
    i += width - 1;
  }
  if (start >= 0) word(low.slice(start));
}

/** PostgreSQL's limits: a lexeme of at most 2047 bytes, positions up to 16383, 256 positions a lexeme. */
const MAX_LEXEME_BYTES = 2047,
  MAX_POSITION = 16383,
  MAX_POSITIONS = 256;

const tooLong = (word: string) => word.length > MAX_LEXEME_BYTES / 4 && Buffer.byteLength(word) > MAX_LEXEME_BYTES;

export function words(text: string): string[] {
  const out: string[] = [];
  eachWord(text, (w) => out.push(w));
  return out;
}

/** The words and positions as a tsvector literal, with PostgreSQL's limits (positions, 256 each, 2047 bytes). */
export function tsvector(text: string): string {
  const entries = new Map<string, { literal: string; count: number; last: number }>();
  let position = 0;
  eachWord(text, (word) => {
    position = Math.min(position + 1, MAX_POSITION);
    const entry = entries.get(word);
    if (entry === undefined) {
      if (!tooLong(word)) entries.set(word, { literal: `'${word}':${position}`, count: 1, last: position });
    } else if (entry.count < MAX_POSITIONS && entry.last !== position) {
      entry.literal += `,${position}`;
      entry.count += 1;
      entry.last = position;
    }
  });
  let out = "";
  for (const { literal } of entries.values()) out += out ? ` ${literal}` : literal;
  return out;
}

/** The words of a search text in that order, as a tsquery literal (`'git' <-> 'log'`); null when it has no words. */
export function phraseQuery(text: string): string | null {
  const list = words(text).filter((w) => !tooLong(w));
  return list.length ? list.map((w) => `'${w}'`).join(" <-> ") : null;
}
