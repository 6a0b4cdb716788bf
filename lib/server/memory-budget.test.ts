import { describe, expect, it } from "vitest";
import { MemoryBudget } from "./memory-budget";

describe("the memory budget", () => {
  it("grants what fits now, makes the rest wait in order, and grants as reservations end", async () => {
    const budget = new MemoryBudget(100, 2);
    const a = budget.tryReserve(60)!;
    expect(a.bytes).toBe(60);
    expect(budget.tryReserve(50)).toBeNull(); // 60 + 50 > 100
    const granted: string[] = [];
    const b = budget.reserve(50)!.then((r) => {
      granted.push("b");
      return r;
    });
    // c would fit beside a (60 + 30), but b waits first: no overtaking.
    const c = budget.reserve(30)!.then((r) => {
      granted.push("c");
      return r;
    });
    expect(budget.waiting).toBe(2);
    expect(budget.full).toBe(true);
    expect(budget.reserve(1)).toBeNull(); // a third may not wait
    await Promise.resolve();
    expect(granted).toEqual([]);
    a.release();
    a.release(); // twice is once
    const [rb, rc] = await Promise.all([b, c]);
    expect(granted).toEqual(["b", "c"]); // 50 + 30 fit together once a is gone
    expect(budget.inUse).toBe(80);
    rb.release();
    rc.release();
    expect(budget.inUse).toBe(0);
  });

  it("cuts a reservation larger than the whole budget to it, so that work runs alone", async () => {
    const budget = new MemoryBudget(100, 4);
    const small = budget.tryReserve(10)!;
    const huge = budget.reserve(1_000)!;
    let got = false;
    void huge.then(() => {
      got = true;
    });
    await Promise.resolve();
    expect(got).toBe(false);
    small.release();
    const r = await huge;
    expect(r.bytes).toBe(100);
    expect(budget.tryReserve(1)).toBeNull();
    r.release();
    expect(budget.tryReserve(1)).not.toBeNull();
  });
});
