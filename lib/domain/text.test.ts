import { describe, expect, it } from "vitest";
import { NUL_STAND_IN, shownText, storableJson, storableText } from "./text";

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

describe("shownText", () => {
  it("makes every bidirectional control visible by its code point, so none reorders what is around it", () => {
    // A model name whose override would show "gpt-4o-mini · network on" as "no krowten · inim-o4-tpg".
    expect(shownText("gpt\u202E-4o-mini")).toBe("gpt⟨U+202E⟩-4o-mini");
    expect(shownText("a\u2066b\u2069c\u200Fd\u200Ee\u061Cf\u202Ag\u202Bh\u202Ci\u202Dj\u2067k\u2068l")).toBe(
      "a⟨U+2066⟩b⟨U+2069⟩c⟨U+200F⟩d⟨U+200E⟩e⟨U+061C⟩f⟨U+202A⟩g⟨U+202B⟩h⟨U+202C⟩i⟨U+202D⟩j⟨U+2067⟩k⟨U+2068⟩l",
    );
    // Right-to-left letters themselves are text, shown as they are; so is markup.
    expect(shownText("שלום <b>x</b>")).toBe("שלום <b>x</b>");
    expect(shownText("x".repeat(5)).length).toBe(5);
  });

  it("makes every control character visible but tab, newline and carriage return", () => {
    // A judge's rationale or a judge's name with a terminal's codes, a bell, DEL and a C1 control.
    expect(shownText("ok \u001b[31mred\u0007\u007f\u009b2J")).toBe("ok ⟨U+001B⟩[31mred⟨U+0007⟩⟨U+007F⟩⟨U+009B⟩2J");
    expect(shownText("a\tb\r\nc\u0000")).toBe("a\tb\r\nc⟨U+0000⟩");
  });
});
