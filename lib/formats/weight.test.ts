// A record's weight: its bytes and its values, counted in its text before it is parsed. Each count
// worked out by hand: a value is an object, an array, a member or an element separator outside strings.
import { describe, expect, it } from "vitest";
import { formatBytes } from "@/lib/domain/format";
import { countValues, mostWeight, overWeight, TextWeigher, VALUE_WEIGHT, ValueCounter, weightOf } from "./weight";

describe("counting values", () => {
  it("counts {, [, : and , outside strings only", () => {
    // { : , : [ , ,: an object, two members and their separator, an array and its two separators.
    expect(countValues('{"a":1,"b":[1,2,3]}')).toBe(7);
    // Inside strings, nothing counts: braces, colons, commas, escaped quotes.
    expect(countValues('{"a":"{[:,]}\\",:"}')).toBe(2);
    // An escaped backslash ends before the closing quote: what follows is outside again.
    expect(countValues('["x\\\\",1]')).toBe(2);
    expect(countValues("[0,0,0,0]")).toBe(4);
  });

  it("counts the same however the text is cut into chunks, an escape cut in two included", () => {
    const text = '{"k":"a\\\\\\"b,[c\\\\","l":[1,{"m":"\\\\"}],"n":"x"}';
    const whole = countValues(text);
    // { : , : [ , { : , : (the strings' braces, commas and escaped quotes do not count).
    expect(whole).toBe(10);
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const c = new ValueCounter();
      c.push(bytes.subarray(0, cut));
      c.push(bytes.subarray(cut));
      expect(c.values, `cut at ${cut}`).toBe(whole);
    }
  });

  it("weighs the heaviest line and the whole of a text as it streams", () => {
    const w = new TextWeigher();
    // Line 1: 7 bytes, 2 values; line 2: 9 bytes, 4 values; line 3 (no newline): 2 bytes, none.
    w.push(Buffer.from('{"a":1}\n[1,2,'));
    w.push(Buffer.from("3,4]\n{}"));
    expect(w.lineWeight).toBe(weightOf(9, 4));
    expect(w.weight).toBe(weightOf(7 + 1 + 9 + 1 + 2, 2 + 4 + 1));
    expect(weightOf(9, 4)).toBe(9 + 4 * VALUE_WEIGHT);
  });

  it("names a record over the limit by what it holds; a long string of the same bytes is within it", () => {
    const limit = 1000;
    // 300 bytes holding 100 values weigh 300 + 3,200: over a 1,000-byte limit.
    expect(overWeight(300, 100, limit, formatBytes)).toBe(
      "it holds 100 values in 300 B, which weigh 3.4 KB as an import holds them (each value counts as 32 bytes " +
        "besides its text): over the record limit of 1000 B (IMPORT_MAX_RECORD_BYTES)",
    );
    expect(overWeight(900, 3, limit, formatBytes)).toBeNull();
    // No text shorter than this can be over the limit, whatever it holds.
    expect(mostWeight(Math.floor(limit / 17))).toBeLessThanOrEqual(limit);
  });
});
