import { describe, expect, it } from "vitest";
import { COMMAND_PREFIX, OUTPUT_PREFIX, SEARCH_DOCUMENT_LIMIT, SearchDocument } from "./search";

describe("SearchDocument", () => {
  it("keeps the start of each command and of each output, one a line, in two documents", () => {
    const d = new SearchDocument();
    d.addCommand("git log --all");
    d.addOutput("x".repeat(OUTPUT_PREFIX + 10));
    d.addCommand("c".repeat(COMMAND_PREFIX + 5));
    d.addOutput("");
    d.addOutput("done");
    expect(d.texts()).toEqual({ commands: `git log --all\n${"c".repeat(COMMAND_PREFIX)}`, outputs: `${"x".repeat(OUTPUT_PREFIX)}\ndone` });
  });
  it("stops each document at the limit", () => {
    const d = new SearchDocument();
    for (let i = 0; i < 1000; i++) { d.addCommand("y".repeat(COMMAND_PREFIX)); d.addOutput("z".repeat(OUTPUT_PREFIX)); }
    for (const text of Object.values(d.texts())) {
      expect(text.length).toBeLessThanOrEqual(SEARCH_DOCUMENT_LIMIT);
      expect(text.length).toBeGreaterThan(SEARCH_DOCUMENT_LIMIT - COMMAND_PREFIX);
    }
  });
});
