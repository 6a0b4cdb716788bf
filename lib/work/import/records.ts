import "server-only";
// One import: a file's records land whole in one transaction, or not at all.

import { importGold } from "@/lib/data/gold";
import { importCategories } from "@/lib/data/import/categories";
import { ImportContext, type Located, type RecordError, type WriteCounts } from "@/lib/data/import/context";
import {
  type ImportReport,
  type ImportSource,
  insertImportRow,
  markFailed,
  markSucceeded,
} from "@/lib/data/import/import-row";
import { fileRefKeys, missingReferences, refKey } from "@/lib/data/import/references";
import { importRules } from "@/lib/data/import/rules";
import { writeTaskRecords } from "@/lib/data/import/tasks";
import { TrajectoryWriter } from "@/lib/data/import/trajectories";
import { writeVotes } from "@/lib/data/import/votes";
import { importLabels } from "@/lib/data/labels";
import { transaction } from "@/lib/data/sql";
import {
  type CategoryRecord,
  parseInterchangeRecord,
  type RawRecord,
  type RuleRecord,
} from "@/lib/formats/interchange";
import type { TaskRecord } from "@/lib/formats/task-record";
import type { GoldRecord, JudgeVoteRecord, LabelRecord } from "@/lib/formats/verdict-records";
import { ErrorLog, TrajectoryBatches, yieldNow } from "./batches";
import { WarningLog } from "./warnings";

export type { ImportReport, ImportSource, RawRecord };

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

/** Reads, validates and writes one file's records in the import's transaction; throws Rejected on a bad one. */
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
  const rules: Array<Located<RuleRecord>> = [];
  const categories: Array<Located<CategoryRecord>> = [];
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
    else if (parsed.value.type === "rule") rules.push({ line, record: parsed.value.record });
    else if (parsed.value.type === "category") categories.push({ line, record: parsed.value.record });
    else labels.push({ line, record: parsed.value.record });
    if (seen.count % 100 === 0) onProgress?.(seen.count);
    await yieldNow();
  }
  await trajectories.end();
  // Once rejected, nothing more is written, but every missing reference is still named.
  if (log.count) log.add(await missingReferences(ctx.sql, [...votes, ...labels, ...gold], fileRefs));
  else {
    // Categories first: the votes, labels and rules after them may name one.
    log.add(await importCategories(ctx, categories));
    seen.warnings.checkTasks(tasks);
    ctx.taskInstances.push(...(await writeTaskRecords(ctx, tasks)));
    log.add(await writeVotes(ctx, votes));
    log.add(log.count ? await missingReferences(ctx.sql, labels, fileRefs) : await importLabels(ctx, labels));
    log.add(log.count ? await missingReferences(ctx.sql, gold, fileRefs) : await importGold(ctx, gold));
    if (!log.count) log.add(await importRules(ctx, rules));
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
        const ctx = await ImportContext.begin(sql, importId, new Date());
        const writer = new TrajectoryWriter(ctx);
        let written: WriteCounts;
        try {
          written = await writeRecords(ctx, writer, records, seen, progress);
        } finally {
          await writer.release();
        }
        // Marked succeeded in the same transaction as its rows (decision 15).
        await markSucceeded(sql, importId, {
          sha256: source.sha256?.() ?? null,
          format: format(),
          written,
          report: report(),
        });
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
