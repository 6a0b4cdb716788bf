import "server-only";
// How one import reads and writes: bad records counted, trajectories written in batches while reading on.

import type { Located, RecordError } from "@/lib/data/import/context";
import { type PreparedTrajectory, prepareTrajectory } from "@/lib/data/import/prepared";
import type { TrajectoryWriter } from "@/lib/data/import/trajectories";
import type { TrajectoryRecord } from "@/lib/formats/interchange";

/** At most this many errors are kept and shown for one file; the count says how many there were. */
export const MAX_REPORTED_ERRORS = 100;
/** Trajectories are written this many (or this many bytes) at a time, so memory stays bounded on large files. */
const BATCH = 200;
const BATCH_BYTES = 32 * 1024 * 1024;
/** Batches grow from this, doubling to BATCH_BYTES, so the database starts writing early. */
const FIRST_BATCH_BYTES = 2 * 1024 * 1024;

/** Bad records of one file: all counted, the first MAX_REPORTED_ERRORS kept. */
export class ErrorLog {
  readonly errors: RecordError[] = [];
  count = 0;
  readonly add = (e: readonly RecordError[]) => {
    this.count += e.length;
    this.errors.push(...e.slice(0, Math.max(0, MAX_REPORTED_ERRORS - this.errors.length)));
  };
}

/** Trajectories written in batches while the next is read; after an error reading goes on to report all. */
export class TrajectoryBatches {
  private batch: PreparedTrajectory[] = [];
  private bytes = 0;
  private limit = FIRST_BATCH_BYTES;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: TrajectoryWriter,
    private readonly log: ErrorLog,
  ) {}

  async add(item: Located<TrajectoryRecord> & { format?: string }, bytes: number): Promise<void> {
    // Nothing more is written after the first error: no need to prepare what will not be.
    if (this.log.count) return;
    this.batch.push(prepareTrajectory(item));
    this.bytes += bytes;
    if (this.batch.length >= BATCH || this.bytes >= this.limit) await this.flush();
  }

  private async flush(): Promise<void> {
    const items = this.batch;
    this.batch = [];
    this.bytes = 0;
    this.limit = Math.min(this.limit * 2, BATCH_BYTES);
    if (this.log.count || !items.length) return;
    await this.writing;
    if (this.log.count) return;
    this.writing = this.writer.write(items).then(this.log.add);
    // Handled here so a failure is not an unhandled rejection before the next await reaches it.
    this.writing.catch(() => {});
  }

  async end(): Promise<void> {
    await this.flush();
    await this.writing;
  }
}

let lastYield = 0;
/** Lets the database's replies in every few ms; read-ahead would otherwise parse back to back in microtasks. */
export async function yieldNow(): Promise<void> {
  if (performance.now() - lastYield < 4) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  lastYield = performance.now();
}
