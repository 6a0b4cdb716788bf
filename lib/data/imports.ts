import "server-only";
// One import: a stream of records from one file lands whole, in one transaction, or not at all.
// The Import row that records it is written outside that transaction, so a rejected file is still
// listed with its errors.
import type { TaskRecord } from "@/lib/import/task-record";
import {
  parseInterchangeRecord,
  type JudgeVoteRecord,
  type GoldRecord,
  type LabelRecord,
  type RawRecord,
} from "@/lib/import/interchange";
import { db } from "@/lib/db";
import { storableJson } from "@/lib/domain/text";
import { importGold } from "./gold";
import { importLabels } from "./labels";
import { ImportContext, type Located, type RecordError, type WriteCounts } from "./import/context";
import { fileRefKeys, missingReferences, refKey } from "./import/references";
import { TrajectoryWriter } from "./import/trajectories";
import { writeVotes } from "./import/votes";
import { writeTaskRecords } from "./import/tasks";
import { ErrorLog, TrajectoryBatches, yieldNow } from "./import/batches";
import { WarningLog, type RecordWarning } from "./import/warnings";
import { type Sql, transaction } from "./sql";
import { IMPORT_LOCK } from "./recovery";

export type { RawRecord };

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
  /** Reject the file if it has any warning (`import --strict`). */
  strict?: boolean;
};

/** What the readers found and warned of, whether the file landed or not. */
export type ImportReport = {
  assistantTurns: number;
  toolCalls: number;
  warnings: RecordWarning[];
  warningCount: number;
};

export type ImportOutcome = ImportReport &
  (
    | { ok: true; importId: number; counts: WriteCounts; records: number }
    | { ok: false; importId: number; errors: RecordError[]; errorCount: number; records: number }
  );

class Rejected extends Error {
  constructor(
    readonly errors: RecordError[],
    readonly errorCount: number,
  ) {
    super(`${errorCount} bad record(s)`);
  }
}

/**
 * Reads, validates and writes one file's records inside the import's transaction; throws Rejected on any bad record.
 */
async function writeRecords(
  ctx: ImportContext,
  writer: TrajectoryWriter,
  records: AsyncIterable<RawRecord> | Iterable<RawRecord>,
  seen: { count: number; formats: Set<string>; warnings: WarningLog; strict: boolean },
  onProgress?: (records: number) => void,
): Promise<WriteCounts> {
  const log = new ErrorLog();
  const trajectories = new TrajectoryBatches(writer, log);
  const votes: Array<Located<JudgeVoteRecord>> = [];
  const labels: Array<Located<LabelRecord>> = [];
  const gold: Array<Located<GoldRecord>> = [];
  const tasks: Array<Located<TaskRecord>> = [];
  const fileRefs = new Set<string>();
  for await (const raw of records) {
    const { line } = raw;
    seen.count += 1;
    if ("value" in raw) seen.formats.add(raw.format ?? "interchange");
    const parsed = "errors" in raw ? ({ ok: false, errors: raw.errors } as const) : parseInterchangeRecord(raw.value);
    if (!parsed.ok) {
      log.add(parsed.errors.map((e) => ({ line, ...e })));
      // A bad trajectory is still in the file: votes naming it by id are not "missing".
      const id = "value" in raw ? (raw.value as { id?: unknown } | null)?.id : undefined;
      if (typeof id === "string") fileRefs.add(refKey({ id }));
    } else if (parsed.value.type === "trajectory") {
      seen.warnings.check(line, parsed.value.record);
      for (const k of fileRefKeys(parsed.value.record)) fileRefs.add(k);
      await trajectories.add({ line, record: parsed.value.record, format: raw.format }, raw.bytes ?? 0);
    }
    // Votes and labels wait until every trajectory of the file is in: they may name one further down.
    else if (parsed.value.type === "judge_vote") votes.push({ line, record: parsed.value.record });
    else if (parsed.value.type === "task") tasks.push({ line, record: parsed.value.record });
    else if (parsed.value.type === "gold") gold.push({ line, record: parsed.value.record });
    else labels.push({ line, record: parsed.value.record });
    if (seen.count % 100 === 0) onProgress?.(seen.count);
    await yieldNow();
  }
  await trajectories.end();
  // Once the file is rejected nothing more is written, but every vote or label whose
  // trajectory exists nowhere (database or file) is still named.
  if (log.count) log.add(await missingReferences(ctx.sql, [...votes, ...labels, ...gold], fileRefs));
  else {
    seen.warnings.checkTasks(tasks);
    ctx.taskInstances.push(...(await writeTaskRecords(ctx, tasks)));
    log.add(await writeVotes(ctx, votes));
    log.add(log.count ? await missingReferences(ctx.sql, labels, fileRefs) : await importLabels(ctx, labels));
    log.add(log.count ? await missingReferences(ctx.sql, gold, fileRefs) : await importGold(ctx, gold));
  }
  if (seen.strict && seen.warnings.count) {
    const asErrors = seen.warnings.asErrors();
    log.add(asErrors);
    log.count += seen.warnings.count - asErrors.length;
  }
  if (log.count)
    throw new Rejected(
      log.errors.sort((x, y) => x.line - y.line),
      log.count,
    );
  await ctx.refreshTouched();
  await writer.finish();
  return ctx.counts;
}

/** Calls a progress listener without letting it fail the import (a browser that went away, say). */
export function safely<T>(onProgress: ((progress: T) => void) | undefined): (progress: T) => void {
  return (progress) => {
    try {
      onProgress?.(progress);
    } catch {
      // Progress is a courtesy: the import's outcome does not depend on who is listening.
    }
  };
}

/**
 * The Import row that records one file, created before the file is read (a rejected file is still
 * listed). For an import (`locked`), it is written by the connection that will hold the import's
 * transaction, in one statement with a session lock on the row's id: while the lock is held the
 * import's process is alive; once the process dies, lib/data/recovery.ts marks the row interrupted.
 */
async function insertImportRow(sql: Sql, source: ImportSource, locked: boolean): Promise<number> {
  const [row] = await sql.query<{ id: number }>(
    `WITH r AS (
       INSERT INTO "import" ("fileName", format, "fileBytes", source, "userId", "byName")
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id)
     SELECT id${locked ? `, pg_advisory_lock(${IMPORT_LOCK}, id)` : ""} FROM r`,
    [
      source.fileName,
      source.format,
      source.fileBytes ?? 0,
      source.source ?? "cli",
      source.userId ?? null,
      source.byName ?? null,
    ],
  );
  return row!.id;
}

/**
 * Records a file that failed before its records could be read (an upload cut off): listed with the
 * reason, nothing written.
 */
export async function recordFailedImport(source: ImportSource, reason: string): Promise<number> {
  const id = await transaction((sql) => insertImportRow(sql, source, false));
  await markFailed(id, { rejected: 1, errors: [{ line: 0, field: null, message: reason }] });
  return id;
}

async function markFailed(
  importId: number,
  data: { rejected: number; errors: RecordError[]; format?: string; sha256?: string | null; report?: ImportReport },
) {
  await db().import.update({
    where: { id: importId },
    data: {
      status: "FAILED",
      finishedAt: new Date(),
      fileSha256: data.sha256 ?? null,
      format: data.format,
      rejected: data.rejected,
      errors: storableJson(data.errors) as RecordError[],
      ...(data.report && {
        assistantTurns: data.report.assistantTurns,
        toolCalls: data.report.toolCalls,
        warnings: storableJson(data.report.warnings) as RecordWarning[],
        warningCount: data.report.warningCount,
      }),
    },
  });
}

export async function runImport(
  source: ImportSource,
  records: AsyncIterable<RawRecord> | Iterable<RawRecord>,
  onProgress?: (records: number) => void,
): Promise<ImportOutcome> {
  let importId = 0;
  const seen = { count: 0, formats: new Set<string>(), warnings: new WarningLog(), strict: source.strict ?? false };
  const report = (): ImportReport => ({
    ...seen.warnings.totals,
    warnings: seen.warnings.warnings,
    warningCount: seen.warnings.count,
  });
  const format = () => [...seen.formats].sort().join(", ") || source.format;
  const progress = safely(onProgress);
  let counts: WriteCounts;
  try {
    counts = await transaction(
      async (sql) => {
        const ctx = new ImportContext(sql, importId, new Date());
        const writer = new TrajectoryWriter(ctx);
        let written: WriteCounts;
        try {
          written = await writeRecords(ctx, writer, records, seen, progress);
        } finally {
          await writer.release();
        }
        // Marked succeeded in the same transaction as its rows: a committed import is never listed
        // as failed, and a failed one never as succeeded, whatever happens after the commit.
        await sql.query(
          `UPDATE "import" SET status = 'SUCCEEDED', "finishedAt" = $2, "fileSha256" = $3, format = $4, trajectories
          = $5, votes = $6, labels = $7, replaced = $8, unparseable = $9, "assistantTurns" = $10,
          "toolCalls" = $11, warnings = $12::jsonb, "warningCount" = $13, "taskRecords" = $14, gold = $15
        WHERE id = $1`,
          [
            importId,
            new Date(),
            source.sha256?.() ?? null,
            format(),
            written.trajectories,
            written.votes,
            written.labels,
            written.replaced,
            written.unparseable,
            seen.warnings.totals.assistantTurns,
            seen.warnings.totals.toolCalls,
            JSON.stringify(storableJson(seen.warnings.warnings)),
            seen.warnings.count,
            written.taskRecords,
            written.gold,
          ],
        );
        return written;
      },
      {
        prelude: async (sql) => {
          importId = await insertImportRow(sql, source, true);
        },
      },
    );
  } catch (e) {
    // No row was written: the database refused the first statement.
    if (!importId) throw e;
    const rejected = e instanceof Rejected ? e : null;
    const reason = rejected
      ? null
      : `the import stopped after ${seen.count} record(s) (${e instanceof Error ? e.message : String(e)}); ` +
        `nothing from this file was written`;
    const errors = rejected?.errors ?? [{ line: seen.count, field: null, message: reason! }];
    // The database may be the thing that failed: recording the failure is best effort.
    await markFailed(importId, {
      rejected: rejected?.errorCount ?? 1,
      errors,
      format: format(),
      sha256: source.sha256?.() ?? null,
      report: report(),
    }).catch(() => {});
    if (!rejected) throw new ImportInterrupted(reason!, { cause: e });
    return { ok: false, importId, errors, errorCount: rejected.errorCount, records: seen.count, ...report() };
  }
  progress(seen.count);
  return { ok: true, importId, counts, records: seen.count, ...report() };
}

/** An import that stopped for a reason other than its records (the database went away): nothing of it was written. */
export class ImportInterrupted extends Error {}
