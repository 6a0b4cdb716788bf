// The memory a process's imports and judge reads share (decision 32): reserved first, waited for, 503 past a few.
import { config, workBudgetBytes } from "@/lib/config";

export type Reservation = { bytes: number; release(): void };

type Waiter = { bytes: number; grant(r: Reservation): void };

export class MemoryBudget {
  private used = 0;
  private readonly queue: Waiter[] = [];
  private readonly givers: Array<() => void> = [];

  constructor(
    readonly total: number,
    readonly maxWaiting: number,
  ) {}

  get inUse(): number {
    return this.used;
  }

  get waiting(): number {
    return this.queue.length;
  }

  get full(): boolean {
    return this.queue.length >= this.maxWaiting;
  }

  /** Reserves `bytes` now, or null when they must wait (others wait first, or there is no room). */
  tryReserve(bytes: number): Reservation | null {
    const b = this.clamp(bytes);
    if (this.queue.length || this.used + b > this.total) return null;
    return this.grant(b);
  }

  /** Reserves `bytes` in turn: a promise of the reservation, or null when too many wait already. */
  reserve(bytes: number): Promise<Reservation> | null {
    return this.full && !this.fits(bytes) ? null : this.await(bytes);
  }

  /** Reserves `bytes` when they are free, however many wait (work of the process's own, a judge's read). */
  await(bytes: number): Promise<Reservation> {
    const now = this.tryReserve(bytes);
    if (now) return Promise.resolve(now);
    const granted = new Promise<Reservation>((resolve) =>
      this.queue.push({ bytes: this.clamp(bytes), grant: resolve }),
    );
    for (const give of this.givers) give();
    return granted;
  }

  /** `give` releases what its holder keeps only to save work; it is called whenever a reservation waits. */
  onWait(give: () => void): void {
    this.givers.push(give);
  }

  private fits(bytes: number): boolean {
    return !this.queue.length && this.used + this.clamp(bytes) <= this.total;
  }

  private clamp(bytes: number): number {
    return Math.min(Math.max(0, Math.ceil(bytes)), this.total);
  }

  private grant(bytes: number): Reservation {
    this.used += bytes;
    let released = false;
    return {
      bytes,
      release: () => {
        if (released) return;
        released = true;
        this.used -= bytes;
        this.wake();
      },
    };
  }

  private wake(): void {
    while (this.queue.length && this.used + this.queue[0]!.bytes <= this.total) {
      const w = this.queue.shift()!;
      w.grant(this.grant(w.bytes));
    }
  }
}

/** How many uploads may wait for memory before the next is answered 503. */
const MAX_WAITING = 8;

const g = globalThis as unknown as { workBudget?: MemoryBudget };

/** This process's budget (one per process: Next's bundles and the server share it through globalThis). */
export function workBudget(): MemoryBudget {
  return (g.workBudget ??= new MemoryBudget(workBudgetBytes(config()), MAX_WAITING));
}
