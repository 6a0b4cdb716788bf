import { afterEach, describe, expect, it, vi } from "vitest";
import { EncodedMessages } from "@/lib/judges/client";
import { MemoryBudget } from "@/lib/server/memory-budget";
import { SharedReads, type SharedRequest } from "./shared-reads";

/** What the messages of a request with an empty text encode to: `[{"role":"user","content":""}]`. */
const EMPTY = new EncodedMessages([{ role: "user", content: "" }]).bytes.length;
/** A request whose messages encode to `bytes` bytes. */
const requestOf = (bytes: number): SharedRequest => ({
  messages: new EncodedMessages([{ role: "user", content: "u".repeat(bytes - EMPTY) }]),
  truncated: false,
  cutChars: 0,
});
const key = (trajectoryId: number, over: Partial<{ runId: number; budgetChars: number }> = {}) => ({
  runId: 1,
  promptVersion: 1,
  trajectoryId,
  budgetChars: 1000,
  ...over,
});

describe("shared reads", () => {
  afterEach(() => vi.useRealTimers());

  it("builds a request once for the judges that ask it together, while it is read and after", async () => {
    const budget = new MemoryBudget(10_000, 1);
    const shared = new SharedReads(budget, 1000);
    let release!: (r: SharedRequest) => void;
    const build = vi.fn(() => new Promise<SharedRequest>((r) => (release = r)));
    const first = shared.request(key(7), build);
    const second = shared.request(key(7), build); // while the first is being read
    await vi.waitFor(() => expect(build).toHaveBeenCalled());
    release(requestOf(200));
    expect(await first).toBe(await second);
    expect(await shared.request(key(7), build)).toBe(await first); // once it is held
    expect(build).toHaveBeenCalledTimes(1);
    expect(shared.counts).toEqual({ built: 1, shared: 2 });
    // Its bytes as encoded: held, and reserved from the budget.
    expect([shared.bytes, budget.inUse]).toEqual([200, 200]);
    // Another run, or another judge's budget, is another request.
    await shared.request(key(7, { runId: 2 }), async () => requestOf(40));
    await shared.request(key(7, { budgetChars: 20 }), async () => requestOf(40));
    expect(shared.counts).toEqual({ built: 3, shared: 2 });
    shared.clear();
    expect([shared.bytes, budget.inUse]).toEqual([0, 0]);
  });

  it("reads a few trajectories at once, first asked first read", async () => {
    const shared = new SharedReads(new MemoryBudget(10_000, 1), 1000, 30_000, 2);
    const started: number[] = [];
    const finish = new Map<number, () => void>();
    const build = (id: number) => () =>
      new Promise<SharedRequest>((resolve) => {
        started.push(id);
        finish.set(id, () => resolve(requestOf(100)));
      });
    const reads = [1, 2, 3, 4].map((id) => shared.request(key(id), build(id)));
    await vi.waitFor(() => expect(started).toEqual([1, 2]));
    // A judge asking for a trajectory being read waits for that read: it takes no turn of its own.
    const again = shared.request(key(2), build(2));
    finish.get(2)!();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]));
    expect(await again).toBe(await reads[1]);
    finish.get(1)!();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3, 4]));
    finish.get(3)!();
    finish.get(4)!();
    await Promise.all(reads);
    expect(shared.counts).toEqual({ built: 4, shared: 1 });
    shared.clear();
  });

  it("drops the least recently used past its bytes, and keeps nothing the budget has no room for", async () => {
    const budget = new MemoryBudget(1000, 1);
    const shared = new SharedReads(budget, 500); // two requests of 200 bytes fit, not three
    const build = (chars: number) => vi.fn(async () => requestOf(chars));
    await shared.request(key(1), build(200));
    await shared.request(key(2), build(200));
    await shared.request(key(1), build(200)); // 1 used again: 2 is now the least recent
    await shared.request(key(3), build(200));
    expect(shared.bytes).toBe(400);
    const again = { 1: build(200), 2: build(200), 3: build(200) };
    await shared.request(key(1), again[1]);
    await shared.request(key(3), again[3]);
    await shared.request(key(2), again[2]);
    expect([again[1].mock.calls.length, again[3].mock.calls.length, again[2].mock.calls.length]).toEqual([0, 0, 1]);
    // A request larger than the share is asked but not held.
    const large = build(600);
    await shared.request(key(4), large);
    await shared.request(key(4), large);
    expect(large).toHaveBeenCalledTimes(2);
    // With the budget taken by other work, nothing is held.
    shared.clear();
    const other = budget.tryReserve(950)!;
    const crowded = build(200);
    await shared.request(key(5), crowded);
    await shared.request(key(5), crowded);
    expect(crowded).toHaveBeenCalledTimes(2);
    expect([shared.bytes, budget.inUse]).toEqual([0, 950]);
    other.release();
  });

  it("gives its memory back as soon as other work waits for the budget", async () => {
    const budget = new MemoryBudget(1000, 1);
    const shared = new SharedReads(budget, 500);
    await shared.request(key(1), async () => requestOf(200));
    await shared.request(key(2), async () => requestOf(200));
    const other = budget.tryReserve(500)!;
    // 400 held and 500 reserved: 300 more would wait for them; the kept requests make room at once.
    const waiting = await budget.await(300);
    expect([shared.bytes, budget.inUse, budget.waiting]).toEqual([0, 800, 0]);
    waiting.release();
    other.release();
  });

  it("a read that fails is not kept: the next judge reads again", async () => {
    const shared = new SharedReads(new MemoryBudget(10_000, 1), 1000);
    await expect(shared.request(key(1), () => Promise.reject(new Error("gone")))).rejects.toThrow("gone");
    await new Promise((r) => setTimeout(r, 0));
    expect(await shared.request(key(1), async () => requestOf(40))).toEqual(requestOf(40));
    expect(shared.counts.built).toBe(2);
  });

  it("gives its memory back after going unused", async () => {
    vi.useFakeTimers();
    const budget = new MemoryBudget(10_000, 1);
    const shared = new SharedReads(budget, 1000, 30_000);
    await shared.request(key(1), async () => requestOf(200));
    await vi.advanceTimersByTimeAsync(20_000);
    await shared.request(key(2), async () => requestOf(200));
    await vi.advanceTimersByTimeAsync(10_000); // 1 unused for 30 s, 2 for 10 s
    expect(budget.inUse).toBe(200);
    await vi.advanceTimersByTimeAsync(30_000);
    expect([shared.bytes, budget.inUse]).toEqual([0, 0]);
  });
});
