import { describe, expect, it } from "vitest";
import { retrying } from "./retry";

describe("retrying", () => {
  it("tries again after a failure, later each time, until the work succeeds", async () => {
    const waits: number[] = [];
    const said: string[] = [];
    let calls = 0;
    const ok = await retrying(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(`not yet ${calls}`);
      },
      {
        attempts: 5,
        delay: (n) => 1000 * 2 ** n,
        onFailure: (e, n, again) => said.push(`${(e as Error).message} ${n} ${again}`),
        sleep: async (ms) => void waits.push(ms),
      },
    );
    expect(ok).toBe(true);
    expect(calls).toBe(3);
    expect(waits).toEqual([2000, 4000]);
    expect(said).toEqual(["not yet 1 1 true", "not yet 2 2 true"]);
  });

  it("gives up after the last attempt, saying so, without throwing", async () => {
    const said: boolean[] = [];
    const ok = await retrying(() => Promise.reject(new Error("down")), {
      attempts: 3,
      delay: () => 0,
      onFailure: (_e, _n, again) => said.push(again),
      sleep: async () => {},
    });
    expect(ok).toBe(false);
    expect(said).toEqual([true, true, false]);
  });
});
