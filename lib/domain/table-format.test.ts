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
});
