import "server-only";
// Task records, upserted by instance id; their trajectories' evidence is recomputed on commit.
import { storableJson, storableText } from "@/lib/domain/text";
import type { TaskRecord } from "@/lib/formats/task-record";
import type { ImportContext, Located } from "./context";

const COLUMNS = [
  "instanceId",
  "repo",
  "baseCommit",
  "patch",
  "testPatch",
  "problemStatement",
  "hintsText",
  "createdAt",
  "version",
  "failToPass",
  "passToPass",
  "environmentSetupCommit",
  "extra",
] as const;
const TYPES = [
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "timestamp",
  "text",
  "jsonb",
  "jsonb",
  "text",
  "jsonb",
];
const BATCH = 500;

/** Writes the task records and returns the instance ids of those it wrote (for the evidence to recompute). */
export async function writeTaskRecords(ctx: ImportContext, records: readonly Located<TaskRecord>[]): Promise<string[]> {
  const last = new Map(records.map((r) => [storableText(r.record.instanceId), r.record]));
  const rows = [...last.entries()];
  // Only those written (new, or changed: a record brought again as it is stored is not) have evidence to recompute.
  const changed: string[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const values = (r: TaskRecord, id: string): unknown[] => [
      id,
      r.repo,
      r.baseCommit,
      storableText(r.patch),
      r.testPatch === null ? null : storableText(r.testPatch),
      r.problemStatement === null ? null : storableText(r.problemStatement),
      r.hintsText === null ? null : storableText(r.hintsText),
      r.createdAt,
      r.version,
      r.failToPass ? JSON.stringify(r.failToPass) : null,
      r.passToPass ? JSON.stringify(r.passToPass) : null,
      r.environmentSetupCommit,
      JSON.stringify(storableJson(r.extra)),
    ];
    const columns = COLUMNS.map((_, k) => batch.map(([id, r]) => values(r, id)[k]));
    const written = await ctx.sql.query<{ instanceId: string }>(
      `INSERT INTO task_record (${COLUMNS.map((c) => `"${c}"`).join(", ")}, "importId", "updatedAt")
       SELECT *, $${COLUMNS.length + 1}::int, now()
         FROM unnest(${COLUMNS.map((_, k) => `$${k + 1}::${TYPES[k]}[]`).join(", ")})
       ON CONFLICT ("instanceId") DO UPDATE SET ${[...COLUMNS.slice(1), "importId", "updatedAt"]
         .map((c) => `"${c}" = EXCLUDED."${c}"`)
         .join(", ")}
       WHERE (${COLUMNS.map((c) => `task_record."${c}"`).join(", ")})
             IS DISTINCT FROM (${COLUMNS.map((c) => `EXCLUDED."${c}"`).join(", ")})
       RETURNING "instanceId"`,
      [...columns, ctx.importId],
    );
    changed.push(...written.map((w) => w.instanceId));
  }
  ctx.counts.taskRecords += records.length;
  return changed;
}
