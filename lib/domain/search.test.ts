import { describe, expect, it } from "vitest";
import { COMMAND_PREFIX, OUTPUT_PREFIX, SEARCH_DOCUMENT_LIMIT, SearchDocument } from "./search";

describe("SearchDocument", () => {
  it("keeps the start of each command and output, one a line", () => {
    const d = new SearchDocument();
    d.addCommand("git log --all");
    d.addOutput("x".repeat(OUTPUT_PREFIX + 10));
    d.addCommand("c".repeat(COMMAND_PREFIX + 5));
    d.addOutput("");
    expect(d.text()).toBe(`git log --all\n${"x".repeat(OUTPUT_PREFIX)}\n${"c".repeat(COMMAND_PREFIX)}`);
  });
  it("stops at the document limit", () => {
    const d = new SearchDocument();
    for (let i = 0; i < 1000; i++) d.addCommand("y".repeat(COMMAND_PREFIX));
    expect(d.text().length).toBeLessThanOrEqual(SEARCH_DOCUMENT_LIMIT);
    expect(d.text().length).toBeGreaterThan(SEARCH_DOCUMENT_LIMIT - COMMAND_PREFIX);
  });
});
