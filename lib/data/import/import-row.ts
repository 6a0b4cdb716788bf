import "server-only";
// The `import` row of a file, written outside its transaction so a failed file is still listed (decision 15).

import { db } from "@/lib/db";
import { storableJson } from "@/lib/domain/text";
import type { RecordWarning } from "@/lib/formats/audit";
import { type Sql, transaction } from "../sql";
import type { RecordError, WriteCounts } from "./context";
import { IMPORT_LOCK } from "./interrupted";

export type ImportSource = {
  fileName: string;
  format: string;
  fileBytes?: number;
  /** The file's SHA-256, asked for when the import ends (the file has been read by then). */
  sha256?: () => string | null;
  source?: "cli" | "web" | "api" | "seed";
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

/** A file's row, written before it is read, with a session lock saying its process lives (interrupted.ts). */
export async function insertImportRow(sql: Sql, source: ImportSource, locked: boolean): Promise<number> {
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

/** A file that failed before its records could be read (an upload cut off): listed with the reason. */
export async function recordFailedImport(source: ImportSource, reason: string): Promise<number> {
  const id = await transaction((sql) => insertImportRow(sql, source, false));
  await markFailed(id, { rejected: 1, errors: [{ line: 0, field: null, message: reason }] });
  return id;
}

/** An upload that ended before its import, listed as failed (best effort: the database may be what failed). */
export async function listRefusedUpload(
  source: Pick<ImportSource, "fileName" | "source" | "userId" | "fileBytes">,
  reason: string,
): Promise<void> {
  await recordFailedImport({ ...source, format: "auto" }, `${reason}; nothing was imported`).catch((e) =>
    console.error("could not record a refused upload", e),
  );
}

export async function markFailed(
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

/** Marks an import succeeded with what it wrote and what its readers warned of, in its own transaction. */
export async function markSucceeded(
  sql: Sql,
  importId: number,
  data: { sha256: string | null; format: string; written: WriteCounts; report: ImportReport },
): Promise<void> {
  const { written, report } = data;
  await sql.query(
    `UPDATE "import" SET status = 'SUCCEEDED', "finishedAt" = $2, "fileSha256" = $3, format = $4, trajectories
      = $5, votes = $6, labels = $7, replaced = $8, unparseable = $9, "assistantTurns" = $10,
      "toolCalls" = $11, warnings = $12::jsonb, "warningCount" = $13, "taskRecords" = $14, gold = $15,
      rules = $16, unchanged = $17, categories = $18
     WHERE id = $1`,
    [
      importId,
      new Date(),
      data.sha256,
      data.format,
      written.trajectories,
      written.votes,
      written.labels,
      written.replaced,
      written.unparseable,
      report.assistantTurns,
      report.toolCalls,
      JSON.stringify(storableJson(report.warnings)),
      report.warningCount,
      written.taskRecords,
      written.gold,
      written.rules,
      written.unchanged,
      written.categories,
    ],
  );
}
