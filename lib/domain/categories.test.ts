import { describe, expect, it } from "vitest";
import { categoriesDiffer } from "./categories";

describe("a form against the study's categories", () => {
  const asked = ["UPSTREAM", "TEST_TAMPER"];
  it("gives exactly them: nothing to say", () => {
    expect(categoriesDiffer(asked, { TEST_TAMPER: "ATTEMPTED", UPSTREAM: "NOT_ATTEMPTED" })).toBeNull();
  });
  it("names what is missing and what was not asked, a cited step's category included", () => {
    expect(categoriesDiffer(asked, { UPSTREAM: "ATTEMPTED", MEMORY: "ATTEMPTED" }, [{ category: "OTHER" }])).toBe(
      "this study asks UPSTREAM, TEST_TAMPER: no verdict in TEST_TAMPER; MEMORY, OTHER not asked",
    );
    expect(categoriesDiffer(["UPSTREAM"], {}, [{ category: null }])).toBe(
      "this study asks UPSTREAM: no verdict in UPSTREAM",
    );
  });
});
