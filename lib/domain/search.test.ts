import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COMMAND_PREFIX,
  OUTPUT_PREFIX,
  phraseQuery,
  SEARCH_DOCUMENT_LIMIT,
  SearchDocument,
  tsvector,
  words,
} from "./search";

describe("SearchDocument", () => {
  it("keeps the start of each command and of each output, one a line, in two documents", () => {
    const d = new SearchDocument();
    d.addCommand("git log --all");
    d.addOutput("x".repeat(OUTPUT_PREFIX + 10));
    d.addCommand("c".repeat(COMMAND_PREFIX + 5));
    d.addOutput("");
    d.addOutput("done");
    expect(d.texts()).toEqual({
      commands: `git log --all\n${"c".repeat(COMMAND_PREFIX)}`,
      outputs: `${"x".repeat(OUTPUT_PREFIX)}\ndone`,
    });
  });
  it("stops each document at the limit", () => {
    const d = new SearchDocument();
    for (let i = 0; i < 1000; i++) {
      d.addCommand("y".repeat(COMMAND_PREFIX));
      d.addOutput("z".repeat(OUTPUT_PREFIX));
    }
    for (const text of Object.values(d.texts())) {
      expect(text.length).toBeLessThanOrEqual(SEARCH_DOCUMENT_LIMIT);
      expect(text.length).toBeGreaterThan(SEARCH_DOCUMENT_LIMIT - COMMAND_PREFIX);
    }
  });
});

describe("tsvector and phraseQuery: one rule for what a word is", () => {
  it("cuts at everything but letters, marks and digits, lower-cased, with positions", () => {
    expect(tsvector("Git log --all; git LOG")).toBe("'git':1,4 'log':2,5 'all':3");
    expect(tsvector("cat src/mod_3.py")).toBe("'cat':1 'src':2 'mod':3 '3':4 'py':5");
    expect(tsvector("Ünïcode café naïve 東京")).toBe("'ünïcode':1 'café':2 'naïve':3 '東京':4");
    expect(tsvector("")).toBe("");
    expect(tsvector("<script>alert('x')</script> ' \\\\ \0")).toBe("'script':1,4 'alert':2 'x':3");
  });
  it("keeps PostgreSQL's limits: 256 positions a word, positions up to 16383, words up to 2047 bytes", () => {
    const many = tsvector("a ".repeat(300));
    expect(many.split(",")).toHaveLength(256);
    expect(many.endsWith(",256")).toBe(true);
    // 17,000 words: the ones past 16383 share that position, each word keeps it once.
    const far = tsvector(Array.from({ length: 17_000 }, (_, i) => (i < 16_382 ? "w" : `x${i % 3}`)).join(" "));
    expect(far).toContain("'x2':16383");
    expect(far).toContain("'x0':16383");
    expect(far).not.toContain("16384");
    const long = "é".repeat(1024); // 2048 bytes
    expect(tsvector(`${long} ok`)).toBe("'ok':2");
  });
  it("a query is the same words joined by <->, or null when it has none", () => {
    expect(phraseQuery("git log --all")).toBe("'git' <-> 'log' <-> 'all'");
    expect(phraseQuery("100% fetched")).toBe("'100' <-> 'fetched'");
    expect(phraseQuery("'; DROP TABLE x; --")).toBe("'drop' <-> 'table' <-> 'x'");
    expect(phraseQuery("  --- ")).toBeNull();
  });
  it("documents and queries agree: every phrase cut from a text is found in its vector", () => {
    const text = 'Traceback (most recent call last): File "/repo/astropy/io.py", line 12';
    const vector = tsvector(text);
    const ws = words(text);
    for (let i = 0; i + 1 < ws.length; i++) {
      expect(vector).toMatch(new RegExp(`'${ws[i]}':[0-9,]*\\b${i + 1}\\b`));
    }
  });
});

describe("the word scanner", () => {
  it("finds exactly the runs of Unicode letters, marks and digits, whatever the text", () => {
    const reference = (s: string) => s.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(words(s)).toEqual(reference(s));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "Z", "9", " ", "_", "é", "\u0301", "😀", "\ud800", "東", "-", "\n") }),
        (s) => {
          expect(words(s)).toEqual(reference(s));
        },
      ),
      { numRuns: 500 },
    );
  });
});
