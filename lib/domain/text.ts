// Agent output is untrusted text. It is kept, never refused, but PostgreSQL text cannot hold a NUL
// byte and UTF-8 cannot hold a lone surrogate, so both are replaced by visible stand-ins.

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

/**
 * Characters that reorder the text around them when shown: bidirectional embeddings, overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069) and the invisible direction marks (U+200E, U+200F, U+061C).
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Control characters: C0 but tab, newline and carriage return; DEL; C1. A terminal's output has its
 * own made readable first (lib/domain/ansi.ts); anywhere else one is shown as its code point.
 */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

const codePoint = (c: string) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;

/**
 * Text to show as it is: each bidirectional control and each control character made visible as its
 * code point (⟨U+202E⟩, ⟨U+001B⟩), so it reorders nothing, neither the text it stands in nor what is
 * around it, and nothing unseen stands in it. Agent text (after its terminal codes: TerminalText),
 * judges' words and names are shown through this; stored, exported and compared text keeps the characters.
 */
export function shownText(s: string): string {
  return s.replace(BIDI_CONTROLS, codePoint).replace(CONTROLS, codePoint);
}
