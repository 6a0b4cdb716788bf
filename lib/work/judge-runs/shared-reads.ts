// A request read and built once for a run's judges asking together (decision 42), within the memory budget.

import type { EncodedMessages } from "@/lib/judges/client";
import type { JudgeRequest } from "@/lib/judges/prompt";
import { MemoryBudget, type Reservation, workBudget } from "@/lib/server/memory-budget";

/** A request as kept for the judges that ask it: its messages encoded, and what was cut to fit. */
export type SharedRequest = Omit<JudgeRequest, "messages"> & { messages: EncodedMessages };

type Entry = { request: Promise<SharedRequest>; reservation: Reservation | null; usedAt: number };

export class SharedReads {
  private readonly entries = new Map<string, Entry>();
  private held = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Reads under way: one unit each, `readsAtOnce` in all. */
  private readonly reading: MemoryBudget;
  /** Requests built (each a read of its trajectory), and requests taken as built by another judge. */
  readonly counts = { built: 0, shared: 0 };

  constructor(
    private readonly budget: MemoryBudget,
    private readonly maxBytes: number,
    private readonly idleMs = 30_000,
    readsAtOnce = READS_AT_ONCE,
  ) {
    budget.onWait(() => this.clear());
    this.reading = new MemoryBudget(readsAtOnce, Number.POSITIVE_INFINITY);
  }

  /** The request for this run, trajectory and budget: built by `build` unless held or being built. */
  request(
    key: { runId: number; promptVersion: number; trajectoryId: number; budgetChars: number },
    build: () => Promise<SharedRequest>,
  ): Promise<SharedRequest> {
    const k = `${key.runId}:${key.promptVersion}:${key.trajectoryId}:${key.budgetChars}`;
    const now = Date.now();
    const found = this.entries.get(k);
    if (found) {
      found.usedAt = now;
      this.entries.delete(k);
      this.entries.set(k, found);
      this.counts.shared += 1;
      return found.request;
    }
    this.counts.built += 1;
    const entry: Entry = { request: this.read(build), reservation: null, usedAt: now };
    this.entries.set(k, entry);
    entry.request.then(
      (r) => this.keep(k, entry, r.messages.bytes.length),
      () => this.entries.get(k) === entry && this.entries.delete(k),
    );
    this.arm();
    return entry.request;
  }

  private async read(build: () => Promise<SharedRequest>): Promise<SharedRequest> {
    const turn = await this.reading.await(1);
    try {
      return await build();
    } finally {
      turn.release();
    }
  }

  clear(): void {
    for (const k of [...this.entries.keys()]) this.drop(k);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  get bytes(): number {
    return this.held;
  }

  /** A built request is kept if the budget has room for it now; the least recent go past `maxBytes`. */
  private keep(k: string, entry: Entry, bytes: number): void {
    if (this.entries.get(k) !== entry) return;
    const reservation = bytes <= this.maxBytes ? this.budget.tryReserve(bytes) : null;
    if (!reservation) return void this.entries.delete(k);
    entry.reservation = reservation;
    this.held += reservation.bytes;
    for (const first of this.entries.keys()) {
      if (this.held <= this.maxBytes) break;
      this.drop(first);
    }
  }

  private drop(k: string): void {
    const e = this.entries.get(k);
    if (!e) return;
    this.entries.delete(k);
    if (e.reservation) {
      this.held -= e.reservation.bytes;
      e.reservation.release();
    }
  }

  /** Drops what went unused for `idleMs`, and looks again while anything is held. */
  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const before = Date.now() - this.idleMs;
      for (const [k, e] of this.entries) {
        if (e.usedAt > before) break;
        this.drop(k);
      }
      if (this.entries.size) this.arm();
    }, this.idleMs);
    this.timer.unref?.();
  }
}

/** Reads at once a process: 4 took a run alone from 226–244 to 248–261 votes/s (`bench:mixed`). */
const READS_AT_ONCE = 4;
/** The share of the process's memory budget that requests kept for other judges may hold. */
const SHARE_OF_BUDGET = 1 / 8;

const g = globalThis as unknown as { sharedReads?: SharedReads };

/** This process's shared reads (Next's bundles and the server share them through globalThis). */
export function sharedReads(): SharedReads {
  const budget = workBudget();
  return (g.sharedReads ??= new SharedReads(budget, budget.total * SHARE_OF_BUDGET));
}
