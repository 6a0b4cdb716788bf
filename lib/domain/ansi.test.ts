import { describe, expect, it } from "vitest";
import { ansiSegments, hasEscapes } from "./ansi";

describe("ansiSegments", () => {
  it("turns colour codes into segments", () => {
    expect(ansiSegments("ok \u001b[31mFAILED\u001b[0m done")).toEqual([
      { text: "ok ", fg: null, bold: false },
      { text: "FAILED", fg: 1, bold: false },
      { text: " done", fg: null, bold: false },
    ]);
    expect(ansiSegments("\u001b[1;92mPASS\u001b[22;39m")).toEqual([{ text: "PASS", fg: 10, bold: true }]);
  });
  it("removes other escapes and control characters, keeps newlines and tabs", () => {
    expect(ansiSegments("\u001b[?2004lDavid:\u001b]0;title\u0007 hi\r\n\tthere\u0007\u0000!\u001b[2K")).toEqual([
      { text: "David: hi\r\n\tthere!", fg: null, bold: false },
    ]);
    // 256-colour codes are skipped whole (their 5;196 is not read as blink and colour 196).
    expect(ansiSegments("256 \u001b[38;5;196mred\u001b[m")).toEqual([{ text: "256 red", fg: null, bold: false }]);
  });
  it("leaves markup as text", () => {
    expect(ansiSegments("<script>alert(1)</script>")).toEqual([
      { text: "<script>alert(1)</script>", fg: null, bold: false },
    ]);
  });
  it("knows when a text needs it", () => {
    expect(hasEscapes("plain\ttext\n")).toBe(false);
    expect(hasEscapes("a\u001b[0m")).toBe(true);
  });
});
