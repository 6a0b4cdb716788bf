import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdParam, IndexParam, malformed, PG_INT_MAX } from "./params";
import { isReportFormat } from "./report-formats";
import { FILTER_KEYS, readTrajectoryFilter } from "./trajectory-filter";

describe("address parameters", () => {
  it("ids are plain digits within the database's integer range", () => {
    expect(IdParam.safeParse(String(PG_INT_MAX)).data).toBe(PG_INT_MAX);
    for (const bad of ["0", "2147483648", "99999999999", "-1", "1e3", "1.5", " 1", "0x10", "", "١"])
      expect(IdParam.safeParse(bad).success).toBe(false);
    expect(IndexParam.safeParse("0").data).toBe(0);
  });

  it("any string is either a valid id in range or refused; never a number beyond the range", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String)), (s) => {
        const r = IdParam.safeParse(s);
        if (r.success)
          expect(r.data >= 1 && r.data <= PG_INT_MAX && String(r.data) === s.replace(/^0+(?=\d)/, "")).toBe(true);
      }),
    );
  });

  it("filters: any generated value either parses or is dropped, and only malformed ones make the address bad", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FILTER_KEYS), fc.string({ unit: "binary" }), (key, value) => {
        const { filter, invalid } = readTrajectoryFilter({ [key]: value });
        if (invalid.length) {
          expect(invalid).toEqual([key]);
          // A list of ids is refused whole rather than widened to every trajectory.
          expect(key === "ids" || malformed(value, key === "run" || key === "page")).toBe(true);
        }
        const v = filter[key];
        if (typeof v === "number") expect(v).toBeLessThanOrEqual(PG_INT_MAX);
        if (typeof v === "string") expect(v).not.toMatch(/\u0000/);
        if (Array.isArray(v)) for (const id of v) expect(id).toBeLessThanOrEqual(PG_INT_MAX);
      }),
      { numRuns: 2000 },
    );
  });

  it("a NUL in a text filter, or a run beyond the range, is named", () => {
    expect(readTrajectoryFilter({ benchmark: "swe\u0000bench" }).invalid).toEqual(["benchmark"]);
    expect(readTrajectoryFilter({ judge: "\u0000" }).invalid).toEqual(["judge"]);
    expect(readTrajectoryFilter({ run: "2147483648" }).invalid).toEqual(["run"]);
    expect(readTrajectoryFilter({ run: "2147483647", model: "m" })).toEqual({
      filter: { run: 2147483647, model: "m" },
      invalid: [],
    });
    // Values the list does not offer still fall back to "any".
    expect(readTrajectoryFilter({ prompt: "sneaky", page: "0" })).toEqual({ filter: {}, invalid: [] });
  });

  it("a report format is one of the formats' own names, never an inherited property", () => {
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"])
      expect(isReportFormat(name)).toBe(false);
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(isReportFormat(s)).toBe(["json", "csv", "latex"].includes(s));
      }),
    );
  });
});
