import { describe, expect, it } from "vitest";
import { csvCell } from "./table-format";

describe("csvCell", () => {
  it("quotes commas, quotes and line breaks, and leaves plain text and null alone", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then')).toBe('"say ""hi"", then"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(null)).toBe("");
  });

  it("neutralises text a spreadsheet would run as a formula, and keeps numbers numbers", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell("+1+1")).toBe("'+1+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tcmd")).toBe("'\tcmd");
    expect(csvCell("\rcmd")).toBe(`"'\rcmd"`);
    expect(csvCell(-12.5)).toBe("-12.5");
    expect(csvCell("model-a")).toBe("model-a");
  });

  it("writes at most 12 significant digits and 10 decimals: no floating-point noise stands as a figure", () => {
    expect(csvCell(0.1 + 0.2)).toBe("0.3"); // 0.30000000000000004
    expect(csvCell(2.7755575615628914e-15)).toBe("0"); // a bound that is 0
    expect(csvCell(-2.7755575615628914e-15)).toBe("0"); // not "-0"
    expect(csvCell(100 / 3)).toBe("33.3333333333"); // 12 significant digits
    expect(csvCell(2 / 3)).toBe("0.6666666667"); // 10 decimals
    expect(csvCell(0.000123)).toBe("0.000123");
    expect(csvCell(1234567)).toBe("1234567");
    expect(csvCell(Number.NaN)).toBe("NaN");
  });
});
