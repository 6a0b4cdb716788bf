import "server-only";
// An annotator's queue item: their label and history, and the judges only when the study allows.
import { z } from "zod";
import { type Actor, assertCan, PermissionDenied } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { CATEGORY_KEY, categoriesDiffer } from "@/lib/domain/categories";
import { PG_INT_MAX } from "@/lib/domain/params";
import { storableText } from "@/lib/domain/text";
import { overallVerdict, sameVerdicts, VERDICTS, type Verdicts } from "@/lib/domain/verdicts";
import { AppError } from "@/lib/errors";
import { voteVerdicts } from "./derived";
import { type StoredLabel, type StoredLabelForm, storedLabelColumns, writeLabel } from "./labels";
import { ITEM_TRAJECTORY_SELECT, VERDICT_SELECT } from "./selects";
import { prepared } from "./sql";
import { getTrajectory } from "./trajectory";

export type OwnLabel = {
  verdicts: Verdicts;
  evidence: Array<{ step: number; category: string | null; note: string | null }>;
  note: string | null;
  updatedAt: string;
};
export type Revision = { at: Date; editor: string | null; before: unknown; after: unknown };

type LabelRow = StoredLabelForm & { updatedAt: Date };

function ownLabelOf(l: LabelRow): OwnLabel {
  return {
    verdicts: voteVerdicts(l),
    evidence: Array.isArray(l.evidence) ? (l.evidence as OwnLabel["evidence"]) : [],
    note: l.note,
    updatedAt: l.updatedAt.toISOString(),
  };
}

/** What a labelling page reads of its study item and trajectory. */
const ITEM_SELECT = {
  trajectoryId: true,
  position: true,
  stratum: true,
  study: { select: { id: true, name: true, blind: true, categories: true } },
  trajectory: { select: ITEM_TRAJECTORY_SELECT },
} as const;

/** An annotator's own label on the item, with its history. */
const OWN_LABEL_SELECT = {
  ...VERDICT_SELECT,
  evidence: true,
  note: true,
  updatedAt: true,
  revisedAfterUnblinding: true,
  revisions: {
    orderBy: { id: "desc" },
    select: { createdAt: true, before: true, after: true, editor: { select: { handle: true } } },
  },
} as const;

/** One item of the actor's queue, by its position in the study; null if it is not assigned to them. */
export async function queueItem(actor: Actor, studyId: number, position: number) {
  assertCan(actor, "labels:write");
  const item = await db().studyItem.findFirst({
    where: { studyId, position, assignments: { some: { annotatorId: actor.id } } },
    select: ITEM_SELECT,
  });
  if (!item) return null;
  const label = await db().label.findUnique({
    where: { trajectoryId_annotatorId: { trajectoryId: item.trajectoryId, annotatorId: actor.id } },
    select: OWN_LABEL_SELECT,
  });
  const [positions, judges] = await Promise.all([
    db().studyItem.findMany({
      where: { studyId, assignments: { some: { annotatorId: actor.id } } },
      orderBy: { position: "asc" },
      select: { position: true },
    }),
    // Blind: the judges stay unread until this annotator has given their label.
    !item.study.blind || label ? getTrajectory(item.trajectoryId) : Promise.resolve(null),
  ]);
  const list = positions.map((p) => p.position);
  const at = list.indexOf(position);
  return {
    study: item.study,
    position,
    stratum: item.stratum,
    trajectory: item.trajectory,
    index: at,
    total: list.length,
    previous: list[at - 1] ?? null,
    following: list[at + 1] ?? null,
    label: label ? ownLabelOf(label) : null,
    revisedAfterUnblinding: label?.revisedAfterUnblinding ?? false,
    revisions: (label?.revisions ?? []).map(
      (r): Revision => ({ at: r.createdAt, editor: r.editor?.handle ?? null, before: r.before, after: r.after }),
    ),
    judges,
  };
}

const key = z.string().max(40).regex(CATEGORY_KEY);
export const LabelFormSchema = z.object({
  studyId: z.number().int().positive().max(PG_INT_MAX),
  trajectoryId: z.number().int().positive().max(PG_INT_MAX),
  /** A verdict in each category the study asks (checked against the study as it is written). */
  verdicts: z
    .record(key, z.enum(VERDICTS))
    .refine((v) => Object.keys(v).length > 0 && Object.keys(v).length <= 100, "a verdict in each category"),
  evidence: z
    .array(
      z.object({
        step: z.number().int().min(0).max(PG_INT_MAX),
        category: key.nullable().default(null),
        note: z.string().max(2000).nullable().default(null),
      }),
    )
    .max(200)
    .default([]),
  note: z.string().max(20_000).nullable().default(null),
  /** The label's updatedAt when the form was opened ("" for a new label): a guard against overwriting another tab. */
  base: z.string(),
});
export type LabelForm = z.input<typeof LabelFormSchema>;

/** A label form older than the stored label (another tab saved first): refused, not overwritten. */
export class LabelConflict extends AppError {
  constructor(message: string) {
    super("CONFLICT", message);
  }
}

const sameForm = (a: { verdicts: Verdicts; evidence: unknown; note: string | null }, b: typeof a) =>
  sameVerdicts(a.verdicts, b.verdicts) &&
  JSON.stringify(a.evidence) === JSON.stringify(b.evidence) &&
  (a.note ?? "") === (b.note ?? "");

// The item as assigned to the annotator ($3), with their label on it if any.
const ASSIGNED_LABEL_SQL = `SELECT s.blind, s.categories AS asked, ${storedLabelColumns("l")} FROM study_assignment a
    JOIN study_item i ON i.id = a."studyItemId" JOIN study s ON s.id = i."studyId"
    LEFT JOIN label l ON l."trajectoryId" = i."trajectoryId" AND l."annotatorId" = a."annotatorId"
   WHERE i."studyId" = $1 AND i."trajectoryId" = $2 AND a."annotatorId" = $3`;

type AssignedLabel = { blind: boolean; asked: string[] } & ({ id: null } | StoredLabel);

/** A form gives exactly the study's categories (contract "Categories" 5): else refused, naming the difference. */
export function askedOrRefused(
  asked: readonly string[],
  given: Verdicts,
  evidence: ReadonlyArray<{ category: string | null }>,
) {
  const difference = categoriesDiffer(asked, given, evidence);
  if (difference) throw new AppError("BAD_INPUT", difference, "verdicts");
}

/** Statements each on its own, prepared (lib/data/sql.ts), as writeLabel takes them: saves come many a second. */
const onItsOwn = { query: prepared };

/** Saves the actor's label, writing only over the version it read (decision 43). */
export async function submitLabel(
  actor: Actor,
  input: LabelForm,
): Promise<{ status: "saved" | "unchanged"; updatedAt: string }> {
  assertCan(actor, "labels:write");
  const f = LabelFormSchema.parse(input);
  const form = {
    verdicts: f.verdicts,
    evidence: [...f.evidence]
      .sort((a, b) => a.step - b.step)
      .map((e) => ({ step: e.step, category: e.category, note: e.note === null ? null : storableText(e.note) })),
    note: f.note?.trim() ? storableText(f.note.trim()) : null,
  };
  const label = {
    trajectoryId: f.trajectoryId,
    annotatorId: actor.id,
    editorId: actor.id,
    importId: null,
    madeWith: "form" as const,
    studyId: f.studyId,
    assignedIn: f.studyId,
    ...form,
  };
  // A first form is one statement, written if the item is assigned and unlabelled; else read, then decide.
  if (f.base === "") {
    const at = new Date();
    if (await writeLabel(onItsOwn, { ...label, at, replaces: null }, null))
      return { status: "saved" as const, updatedAt: at.toISOString() };
  }
  // Another version is found only when a save landed in between: read again. Three tries bound a storm.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const [assigned] = await prepared<AssignedLabel>(ASSIGNED_LABEL_SQL, [f.studyId, f.trajectoryId, actor.id]);
    if (!assigned) throw new PermissionDenied("labels:write", actor.role);
    askedOrRefused(assigned.asked, form.verdicts, form.evidence);
    const stored = assigned.id === null ? null : assigned;
    if (stored) {
      const current = ownLabelOf(stored);
      if (sameForm(current, form)) return { status: "unchanged" as const, updatedAt: current.updatedAt };
      if (current.updatedAt !== f.base) {
        throw new LabelConflict(
          `this label was changed at ${current.updatedAt} (another tab or window); reload to see it before editing`,
        );
      }
    }
    const at = new Date(Math.max(Date.now(), stored ? stored.updatedAt.getTime() + 1 : 0));
    // Blind: a later edit is marked revised, keeping the overall verdict given blind.
    const blindOverall = stored && assigned.blind ? overallVerdict(voteVerdicts(stored)) : undefined;
    const write = { ...label, at, blindOverall, replaces: stored?.version ?? null };
    if (await writeLabel(onItsOwn, write, stored)) return { status: "saved" as const, updatedAt: at.toISOString() };
  }
  throw new LabelConflict("this label is being changed elsewhere at this moment; reload to see it before editing");
}
