// Rules being tried wait their turn: one person's one at a time, and no more at once than a third of
// the pool (DATABASE_POOL_SIZE 10 by default: three).
import { describe, expect, it } from "vitest";
import { inTurn, triedAtOnce } from "./tried-queue";

describe("rules tried in turn", () => {
  it("runs one person's tries one after another, and at most a third of the pool's at once", async () => {
    expect(triedAtOnce()).toBe(3);
    let now = 0;
    let most = 0;
    const order: string[] = [];
    const work = (name: string) => async () => {
      now += 1;
      most = Math.max(most, now);
      order.push(`${name} starts`);
      await new Promise((r) => setTimeout(r, 20));
      order.push(`${name} ends`);
      now -= 1;
      return name;
    };
    // Thirty from one script, and one each from five others.
    const script = Array.from({ length: 30 }, (_, i) => inTurn("script", work(`s${i}`)));
    const others = Array.from({ length: 5 }, (_, i) => inTurn(`person-${i}`, work(`p${i}`)));
    expect(await Promise.all([...script, ...others])).toEqual([
      ...Array.from({ length: 30 }, (_, i) => `s${i}`),
      ...Array.from({ length: 5 }, (_, i) => `p${i}`),
    ]);
    expect(most).toBe(3);
    // The script's tries never overlap: each ends before the next starts.
    const own = order.filter((o) => o.startsWith("s"));
    for (let i = 0; i < 30; i++) expect(own.slice(2 * i, 2 * i + 2)).toEqual([`s${i} starts`, `s${i} ends`]);
    // A failure gives its turn back.
    await expect(inTurn("script", () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await inTurn("script", work("after"))).toBe("after");
  });
});
