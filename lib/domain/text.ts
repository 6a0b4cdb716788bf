// Agent text is kept, never refused: NUL and lone surrogates, which storage cannot hold, get visible stand-ins.

/** U+2400 SYMBOL FOR NULL: what a NUL byte becomes, so the reader still sees one was there. */
export const NUL_STAND_IN = "\u2400";

/** NUL → U+2400, lone surrogates → U+FFFD. Everything else (escape codes, HTML) is kept as is. */
export function storableText(s: string): string {
  const noNul = s.includes("\u0000") ? s.replaceAll("\u0000", NUL_STAND_IN) : s;
  return noNul.isWellFormed() ? noNul : noNul.toWellFormed();
}

/** The same for every string inside a JSON value (keys too), for jsonb columns. */
export function storableJson(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)]));
  }
  return value;
}

/** Characters that reorder the text around them: bidi embeddings, overrides, isolates and marks. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Control characters but tab, newline and CR (terminal output is made readable first, ansi.ts). */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

const codePoint = (c: string) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;

/** Text shown as it is: bidi and control characters as their code points, so nothing reorders or hides. */
export function shownText(s: string): string {
  return s.replace(BIDI_CONTROLS, codePoint).replace(CONTROLS, codePoint);
}
