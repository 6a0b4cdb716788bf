import { describe, expect, it } from "vitest";
import { formatBytes, formatPercent, formatTime } from "./format";

describe("sizes and percentages for people", () => {
  it("writes bytes in binary units: B, then KB and MB with one decimal, GB with two", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1.0 KB");
    expect(formatBytes(64 * 1024)).toBe("64.0 KB");
    // 3 MB of gzip: 3 × 1,048,576 bytes.
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MB");
    // The decompression bomb's limit in bench:uploads: 100 × 3,131,014 bytes = 298.6 MB.
    expect(formatBytes(313_101_400)).toBe("298.6 MB");
    expect(formatBytes(256 * 1024 ** 2)).toBe("256.0 MB");
    // 2.7 GB of JSONL: 2,899,102,924 bytes / 1,073,741,824 = 2.70.
    expect(formatBytes(2_899_102_924)).toBe("2.70 GB");
  });

  it("writes a percentage with one decimal, an undefined one as a dash", () => {
    expect(formatPercent(200 / 3)).toBe("66.7%");
    expect(formatPercent(null)).toBe("—");
    expect(formatPercent(Number.NaN)).toBe("—");
  });
});

describe("times in tables", () => {
  it("shows UTC minutes, or seconds when asked", () => {
    const d = new Date("2026-12-01T04:26:59.999Z");
    expect(formatTime(d)).toBe("2026-12-01 04:26");
    expect(formatTime(d, true)).toBe("2026-12-01 04:26:59");
  });
});
