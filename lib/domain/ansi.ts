// Terminal escape codes made readable: SGR colours as styled text segments, everything else removed.

export type AnsiSegment = { text: string; fg: number | null; bold: boolean };

// CSI (ESC [ params final), OSC (ESC ] … BEL or ESC \), and two-character escapes.
const ESCAPE =
  /\u001b\[([0-9;?]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-9;?]*[@-~]/g;
// C0 controls other than tab, newline and carriage return, and DEL.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f]/g;

export function ansiSegments(input: string): AnsiSegment[] {
  const segments: AnsiSegment[] = [];
  let fg: number | null = null;
  let bold = false;
  let last = 0;
  const push = (text: string) => {
    const clean = text.replace(CONTROLS, "").replace(/\u001b/g, "");
    if (!clean) return;
    const prev = segments.at(-1);
    if (prev && prev.fg === fg && prev.bold === bold) prev.text += clean;
    else segments.push({ text: clean, fg, bold });
  };
  for (const m of input.matchAll(ESCAPE)) {
    push(input.slice(last, m.index));
    last = m.index! + m[0].length;
    if (m[2] !== "m") continue; // not a colour: dropped
    const codes = (m[1] || "0").split(";").map(Number);
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i]!;
      if (c === 0) {
        fg = null;
        bold = false;
      } else if (c === 1) bold = true;
      else if (c === 22) bold = false;
      else if (c >= 30 && c <= 37) fg = c - 30;
      else if (c >= 90 && c <= 97) fg = c - 90 + 8;
      else if (c === 39) fg = null;
      // 256-colour and RGB: skipped
      else if (c === 38 || c === 48) i += codes[i + 1] === 5 ? 2 : codes[i + 1] === 2 ? 4 : 0;
    }
  }
  push(input.slice(last));
  return segments;
}

/** Whether a text holds anything ansiSegments would change (most outputs do not). */
export function hasEscapes(text: string): boolean {
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u009b]/.test(text);
}
