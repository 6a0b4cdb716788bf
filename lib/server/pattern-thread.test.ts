// The pattern thread: PostgreSQL's own matching on another thread, stopped at its limit while this
// thread goes on, and ready again for the next call.
import { describe, expect, it } from "vitest";
import { patternQuery } from "./pattern-thread";

const MATCH = `SELECT i::int FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) WHERE x ~ $2 ORDER BY i`;

describe("the pattern thread", () => {
  it("matches as PostgreSQL does: its classes, its word boundaries, its errors", async () => {
    const texts = ["git log --all", "gitlog", "GIT LOG", "cat x"];
    expect(await patternQuery(MATCH, [texts, String.raw`\mgit\M\s+log`], 30_000)).toEqual([{ i: 1 }]);
    expect(await patternQuery(MATCH, [texts, "[[:upper:]]{3}"], 30_000)).toEqual([{ i: 3 }]);
    await expect(patternQuery(MATCH, [texts, "(a"], 30_000)).rejects.toThrow(/parentheses/);
  }, 60_000);

  it("stops a pattern past its limit, answers meanwhile, and matches again after", async () => {
    await patternQuery("SELECT 1", [], 30_000); // started
    // About 30 s to run through on a fast machine (312 characters took 1.9 s there, and some runs under 1.5 s).
    const runaway = "abcdefghijklmnopqrstuvwxyz".repeat(24);
    const started = performance.now();
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 100);
    const stopped = await patternQuery(MATCH, [[runaway], String.raw`^(.*)(.*)(.*)\3\2\1.$`], 1_500).catch((e) => e);
    clearInterval(ticking);
    expect((stopped as { code?: string }).code).toBe("57014");
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(10_000);
    // This thread went on while the pattern ran: its timer fired all along.
    expect(ticks).toBeGreaterThanOrEqual(10);
    expect(await patternQuery(MATCH, [["x", "ab"], "b"], 30_000)).toEqual([{ i: 2 }]);
  }, 60_000);

  it("refuses a call with no time left without starting it", async () => {
    await expect(patternQuery("SELECT 1", [], 0)).rejects.toMatchObject({ code: "57014" });
  });
});
