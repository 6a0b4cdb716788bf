import "server-only";
// One import: a stream of records from one file lands whole, in one transaction, or not at all.
// The Import row that records it is written outside that transaction, so a rejected file is still
// listed with its errors.
import { parseInterchangeRecord, type FieldError, type JudgeVoteRecord, type LabelRecord, type TrajectoryRecord } from "@/lib/import/interchange";
import { db } from "@/lib/db";
import { storableJson } from "@/lib/domain/text";
import { ImportWriter, type Located, type RecordError, type WriteCounts } from "./ingest";
import { transaction } from "./sql";

/**
 * A record as read from a file: its line (or record index) and its parsed JSON value, or the
 * errors that kept it from being read. `bytes` (its size in the file) bounds a batch's memory;
 * `format` names the agent format it was converted from.
 */
export type RawRecord = { line: number; bytes?: number; format?: string } & ({ value: unknown } | { errors: FieldError[] });

export type ImportSource = {
  fileName: string;
  format: string;
  fileBytes?: number;
  /** The file's SHA-256, asked for when the import ends (the file has been read by then). */
  sha256?: () => string | null;
  source?: "cli" | "web" | "seed";
  userId?: string | null;
  /** Who ran it, when no signed-in user did (the command line's operating-system user). */
  byName?: string | null;
};

export type ImportOutcome =
  | { ok: true; importId: number; counts: WriteCounts; records: number }
  | { ok: false; importId: number; errors: RecordError[]; errorCount: number; records: number };

/** At most this many errors are kept and shown for one file; the count says how many there were. */
export const MAX_REPORTED_ERRORS = 100;
/** Trajectories are written this many (or this many bytes) at a time, so memory stays bounded on large files. */
const BATCH = 200;
const BATCH_BYTES = 32 * 1024 * 1024;

class Rejected extends Error {
  constructor(readonly errors: RecordError[], readonly errorCount: number) {
    super(`${errorCount} bad record(s)`);
  }
}

export async function runImport(source: ImportSource, records: AsyncIterable<RawRecord> | Iterable<RawRecord>, onProgress?: (records: number) => void): Promise<ImportOutcome> {
  const started = await db().import.create({
    data: { fileName: source.fileName, format: source.format, fileBytes: BigInt(source.fileBytes ?? 0), source: source.source ?? "cli", userId: source.userId ?? null, byName: source.byName ?? null },
    select: { id: true },
  });
  const importId = started.id;
  let count = 0;
  const formats = new Set<string>();
  try {
    const counts = await transaction(async (sql) => {
      const writer = new ImportWriter(sql, { importId, now: new Date() });
      const errors: RecordError[] = [];
      let errorCount = 0;
      const fail = (e: RecordError[]) => {
        errorCount += e.length;
        errors.push(...e.slice(0, Math.max(0, MAX_REPORTED_ERRORS - errors.length)));
      };
      let batch: Array<Located<TrajectoryRecord> & { format?: string }> = [];
      let batchBytes = 0;
      const votes: Array<Located<JudgeVoteRecord>> = [];
      const fileRefs = new Set<string>();
      const labels: Array<Located<LabelRecord>> = [];
      // One batch is written while the next is read and validated: the database and the parser work
      // at the same time. At most one write is in flight (the transaction is one connection).
      let writing: Promise<void> = Promise.resolve();
      const flush = async () => {
        const items = batch;
        batch = [];
        batchBytes = 0;
        // After the first error nothing more is written (it will be rolled back); reading goes on to report every bad record.
        if (errorCount || !items.length) return;
        const prepared = writer.prepare(items);
        await writing;
        if (!errorCount) {
          writing = writer.writeTrajectories(prepared).then(fail);
          // Handled here so a failure is not an unhandled rejection before the next await reaches it.
          writing.catch(() => {});
        }
      };
      for await (const raw of records) {
        const { line } = raw;
        count += 1;
        if ("value" in raw) formats.add(raw.format ?? "interchange");
        const parsed = "errors" in raw ? ({ ok: false, errors: raw.errors } as const) : parseInterchangeRecord(raw.value);
        if (!parsed.ok) {
          fail(parsed.errors.map((e) => ({ line, ...e })));
          // A bad trajectory is still in the file: votes naming it by id are not "missing".
          const id = "value" in raw ? (raw.value as { id?: unknown } | null)?.id : undefined;
          if (typeof id === "string") fileRefs.add(ImportWriter.idRefKey(id));
        }
        else if (parsed.value.type === "trajectory") {
          batch.push({ line, record: parsed.value.record, format: raw.format });
          for (const k of ImportWriter.fileRefKeys(parsed.value.record)) fileRefs.add(k);
          batchBytes += raw.bytes ?? 0;
        }
        // Votes and labels wait until every trajectory of the file is in: they may name one further down.
        else if (parsed.value.type === "judge_vote") votes.push({ line, record: parsed.value.record });
        else labels.push({ line, record: parsed.value.record });
        if (batch.length >= BATCH || batchBytes >= BATCH_BYTES) await flush();
        if (count % 100 === 0) onProgress?.(count);
      }
      await flush();
      await writing;
      // Once the file is rejected nothing more is written, but every vote or label whose
      // trajectory exists nowhere (database or file) is still named.
      if (errorCount) fail(await writer.missingReferences([...votes, ...labels], fileRefs));
      else {
        fail(await writer.votes(votes));
        fail(errorCount ? await writer.missingReferences(labels, fileRefs) : await writer.labels(labels));
      }
      if (errorCount) throw new Rejected(errors.sort((a, b) => a.line - b.line), errorCount);
      return writer.finish();
    });
    onProgress?.(count);
    await db().import.update({
      where: { id: importId },
      data: { status: "SUCCEEDED", finishedAt: new Date(), fileSha256: source.sha256?.() ?? null, format: [...formats].sort().join(", ") || source.format, trajectories: counts.trajectories, votes: counts.votes, labels: counts.labels, replaced: counts.replaced, unparseable: counts.unparseable },
    });
    return { ok: true, importId, counts, records: count };
  } catch (e) {
    const rejected = e instanceof Rejected ? e : null;
    const reason = rejected ? null : `the import stopped after ${count} record(s) (${e instanceof Error ? e.message : String(e)}); nothing from this file was written`;
    const errors = rejected?.errors ?? [{ line: count, field: null, message: reason! }];
    // The database may be the thing that failed: recording the failure is best effort.
    await db().import.update({ where: { id: importId }, data: { status: "FAILED", finishedAt: new Date(), fileSha256: source.sha256?.() ?? null, format: [...formats].sort().join(", ") || source.format, rejected: rejected?.errorCount ?? 1, errors: storableJson(errors) as RecordError[] } })
      .catch(() => {});
    if (!rejected) throw new ImportInterrupted(reason!, { cause: e });
    return { ok: false, importId, errors, errorCount: rejected.errorCount, records: count };
  }
}

/** An import that stopped for a reason other than its records (the database went away): nothing of it was written. */
export class ImportInterrupted extends Error {}
