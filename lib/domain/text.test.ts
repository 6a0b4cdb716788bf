import { describe, expect, it } from "vitest";
import { NUL_STAND_IN, storableJson, storableText } from "./text";

describe("storableText", () => {
  it("keeps NUL bytes visibly as U+2400", () => {
    expect(storableText("a\u0000b\u0000")).toBe(`a${NUL_STAND_IN}b${NUL_STAND_IN}`);
  });
  it("replaces lone surrogates, keeps real pairs", () => {
    expect(storableText("x\uD800y")).toBe("x\uFFFDy");
    expect(storableText("😀")).toBe("😀");
  });
  it("keeps escape codes and markup untouched", () => {
    const s = "\u001b[31mred\u001b[0m <script>alert(1)</script>";
    expect(storableText(s)).toBe(s);
  });
  it("cleans nested JSON, keys included", () => {
    expect(storableJson({ "k\u0000": ["\u0000", 1, null, { x: "\uDC00" }] })).toEqual({
      [`k${NUL_STAND_IN}`]: [NUL_STAND_IN, 1, null, { x: "\uFFFD" }],
    });
  });
});
