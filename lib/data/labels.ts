import "server-only";
// Human labels: one per annotator and trajectory, each change kept as a revision.
import { storableJson, storableText } from "@/lib/domain/text";
import { type MadeWith, overallVerdict, type Verdict, type Verdicts } from "@/lib/domain/verdicts";
import type { LabelRecord } from "@/lib/formats/verdict-records";
import { categoryErrors, recordKeys } from "./categories";
import { voteVerdicts } from "./derived";
import type { ImportContext, Located, RecordError } from "./import/context";
import { locate } from "./import/references";
import type { Sql } from "./sql";

export type LabelWrite = {
  trajectoryId: number;
  annotatorId: string;
  editorId: string | null;
  importId: number | null;
  studyId?: number | null;
  verdicts: Verdicts;
  evidence: unknown;
  note: string | null;
  at: Date;
  /** A blind study's edit of a given label: marked revised, keeping this first (blind) overall verdict. */
  blindOverall?: Verdict;
  /** The stored version this write replaces (null: none), for the queue's save (decision 43); imports omit it. */
  replaces?: string | null;
  /** The labelling queue's: lands only if the annotator is assigned the trajectory in this study. */
  assignedIn?: number;
  /** How it was made: a person's form, a file, a file through the API (docs/formats.md, "Label"). */
  madeWith: MadeWith;
};

/** A label's form as its row stores it: verdicts by category, cited steps, note. */
export type StoredLabelForm = {
  verdicts: unknown;
  evidence: unknown;
  note: string | null;
};
/** version: its updatedAt as PostgreSQL writes it, to compare exactly (LabelWrite.replaces). */
export type StoredLabel = StoredLabelForm & { id: number; updatedAt: Date; version: string };

// Label, revision and count in one statement; $14/$15 the version replaced, $16 the study it must be assigned in.
const LABEL_SQL = `
  WITH written AS (
    INSERT INTO label ("trajectoryId", "annotatorId", "studyId", verdicts, overall, evidence, note, "importId",
      "createdAt", "updatedAt", "madeWith")
    SELECT $1::int, $2::text, $3::int, $4::jsonb, $5::"Verdict", $6::jsonb, $7::text, $8::int, $9::timestamp(3),
           $9::timestamp(3), $17::text
     WHERE $16::int IS NULL OR EXISTS (
       SELECT FROM study_assignment a JOIN study_item i ON i.id = a."studyItemId" JOIN study s ON s.id = i."studyId"
        WHERE i."studyId" = $16 AND i."trajectoryId" = $1 AND a."annotatorId" = $2
          AND ARRAY(SELECT k FROM unnest(s.categories) k ORDER BY k)
            = ARRAY(SELECT jsonb_object_keys($4::jsonb) ORDER BY 1)
          AND NOT EXISTS (SELECT FROM jsonb_array_elements($6::jsonb) e
                           WHERE e->>'category' IS NOT NULL AND NOT e->>'category' = ANY(s.categories)))
    ON CONFLICT ("trajectoryId", "annotatorId") DO UPDATE SET "studyId" = COALESCE(EXCLUDED."studyId", label."studyId"),
      verdicts = EXCLUDED.verdicts, overall = EXCLUDED.overall, evidence = EXCLUDED.evidence, note = EXCLUDED.note,
      "importId" = EXCLUDED."importId",
      "updatedAt" = EXCLUDED."updatedAt", "madeWith" = EXCLUDED."madeWith",
      "revisedAfterUnblinding" = label."revisedAfterUnblinding" OR $10::"Verdict" IS NOT NULL,
      "blindOverall" = CASE WHEN $10::"Verdict" IS NULL THEN label."blindOverall"
        ELSE coalesce(label."blindOverall", $10::"Verdict") END
    WHERE label."updatedAt" <= EXCLUDED."updatedAt" AND (NOT $14::boolean OR label."updatedAt" = $15::timestamp(3))
      AND ($14::boolean OR (label.verdicts, label.evidence, label.note)
        IS DISTINCT FROM (EXCLUDED.verdicts, EXCLUDED.evidence, EXCLUDED.note))
    RETURNING id),
  counted AS (
    UPDATE trajectory SET "labelCount" = "labelCount" + 1
     WHERE id = $1 AND $14::boolean AND $15::timestamp(3) IS NULL AND EXISTS (SELECT FROM written))
  INSERT INTO label_revision ("labelId", "editorId", "createdAt", before, after)
    SELECT id, $11, $9, $12::jsonb, $13::jsonb FROM written
  RETURNING "labelId"`;

export const storedLabelColumns = (alias = "label") =>
  ["id", "verdicts", "evidence", "note", '"updatedAt"']
    .map((c) => `${alias}.${c}`)
    .concat(`${alias}."updatedAt"::text AS version`)
    .join(", ");
const STORED_LABEL = storedLabelColumns();

/** An annotator's stored label on a trajectory, locked for the rest of the transaction; null if none. */
async function lockedLabel(
  sql: Pick<Sql, "query">,
  trajectoryId: number,
  annotatorId: string,
): Promise<StoredLabel | null> {
  const [row] = await sql.query<StoredLabel>(
    `SELECT ${STORED_LABEL} FROM label WHERE "trajectoryId" = $1 AND "annotatorId" = $2 FOR UPDATE`,
    [trajectoryId, annotatorId],
  );
  return row ?? null;
}

/** Creates or edits a label with a revision; an older form or a stale `replaces` is ignored (false). */
export async function writeLabel(
  sql: Pick<Sql, "query">,
  w: LabelWrite,
  before?: StoredLabel | null,
): Promise<boolean> {
  const stored = before === undefined ? await lockedLabel(sql, w.trajectoryId, w.annotatorId) : before;
  const form = { verdicts: w.verdicts, evidence: w.evidence, note: w.note };
  const previous = stored ? { verdicts: voteVerdicts(stored), evidence: stored.evidence, note: stored.note } : null;
  const rows = await sql.query<{ labelId: number }>(LABEL_SQL, [
    w.trajectoryId,
    w.annotatorId,
    w.studyId ?? null,
    JSON.stringify(w.verdicts),
    overallVerdict(w.verdicts),
    JSON.stringify(w.evidence),
    w.note,
    w.importId,
    w.at.toISOString(),
    w.blindOverall ?? null,
    w.editorId,
    previous === null ? null : JSON.stringify(previous),
    JSON.stringify(form),
    w.replaces !== undefined,
    w.replaces ?? null,
    w.assignedIn ?? null,
    w.madeWith,
  ]);
  return rows.length > 0;
}

/** Ids of people records name by handle; one not known yet is created without a login. */
export async function personIds(
  ctx: ImportContext,
  handles: readonly string[],
  role: "ANNOTATOR" | "REVIEWER" = "ANNOTATOR",
): Promise<Map<string, string>> {
  // Handles are unique whatever their case: "Rosa" in a file is rosa.
  const unique = [...new Map(handles.map((h) => [h.toLowerCase(), h])).values()];
  await ctx.sql.query(
    `INSERT INTO "user" (id, handle, name, role, "updatedAt") SELECT gen_random_uuid()::text, h, h, $3::"UserRole", $2
      FROM unnest($1::text[]) AS h
     ON CONFLICT DO NOTHING`,
    [unique, ctx.now.toISOString(), role],
  );
  const rows = await ctx.sql.query<{ id: string; key: string }>(
    `SELECT id, lower(handle) AS key FROM "user" WHERE lower(handle) = ANY($1::text[])`,
    [unique.map((h) => h.toLowerCase())],
  );
  const byKey = new Map(rows.map((r) => [r.key, r.id]));
  return new Map(handles.flatMap((h) => (byKey.has(h.toLowerCase()) ? [[h, byKey.get(h.toLowerCase())!]] : [])));
}

/** Writes the labels of a file; a label whose trajectory exists nowhere is an error, and then nothing is written. */
export async function importLabels(
  ctx: ImportContext,
  items: ReadonlyArray<Located<LabelRecord>>,
): Promise<RecordError[]> {
  if (!items.length) return [];
  const { found, errors } = await locate(ctx.sql, items);
  if (errors.length) return errors;
  const undefinedKeys = await categoryErrors(
    ctx.sql,
    found.map((f) => ({ line: f.line, keys: recordKeys(f.record) })),
  );
  if (undefinedKeys.length) return undefinedKeys;
  const users = await personIds(
    ctx,
    found.map((f) => storableText(f.record.annotator)),
  );
  for (const f of found) {
    await writeLabel(ctx.sql, {
      trajectoryId: f.trajectoryId,
      annotatorId: users.get(storableText(f.record.annotator))!,
      editorId: null,
      importId: ctx.importId,
      madeWith: f.record.made_with ?? ctx.madeWith,
      verdicts: f.record.verdicts,
      evidence: storableJson(f.record.evidence),
      note: f.record.note == null ? null : storableText(f.record.note),
      at: f.record.created_at ?? ctx.now,
    });
    ctx.touched.add(f.trajectoryId);
  }
  ctx.counts.labels += found.length;
  return [];
}
