import "server-only";
// Annotation studies: a seeded, stratified draw assigned with overlap, saved as previewed (decision 9).
import { z } from "zod";
import { type Actor, assertCan } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { assignAnnotators, type Candidate, drawSample, stratumOf } from "@/lib/domain/sampling";
import { annotatorLoad, type DraftItem, type StratumRow, tallyStrata } from "@/lib/domain/study-draft";
import { AppError } from "@/lib/errors";
import { panelCategories } from "./categories";
import { draftDigest } from "./digest";
import { statement, transaction } from "./sql";

export const StudyDesignSchema = z.object({
  name: z.string().trim().min(1, "give the study a name").max(200),
  seed: z.string().trim().min(1, "give a seed").max(200),
  /** Items per stratum (benchmark × model × network × prompt), unless the stratum has its own size. */
  size: z.coerce.number().int().min(0).max(10_000),
  sizes: z.record(z.string(), z.coerce.number().int().min(0).max(10_000)).default({}),
  overlap: z.coerce.number().int().min(1).max(20),
  blind: z.boolean(),
  /** Blind: a labeller cannot open a pending item's trajectory elsewhere in the app (lib/data/blind-elsewhere.ts). */
  blindElsewhere: z.boolean().default(true),
  annotators: z.array(z.string()).min(1, "choose at least one annotator"),
});
export type StudyDesign = z.output<typeof StudyDesignSchema>;

/** A refused study: annotators who cannot sign in, an empty draw, a taken name, a draw changed since its preview. */
export class StudyError extends AppError {
  constructor(message: string, field: string | null = null) {
    super(field ? "BAD_INPUT" : "CONFLICT", message, field);
  }
}

export type { StratumRow };
export type StudyDraft = {
  design: StudyDesign;
  strata: StratumRow[];
  items: DraftItem[];
  load: Array<{ handle: string; items: number }>;
  /** A fingerprint of the draw and assignment: saving checks it is still what was shown. */
  digest: string;
};

async function candidates(): Promise<Candidate[]> {
  const rows = await db().trajectory.findMany({
    select: {
      id: true,
      network: true,
      prompt: true,
      benchmark: { select: { name: true } },
      model: { select: { name: true } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    stratum: stratumOf({ benchmark: r.benchmark.name, model: r.model.name, network: r.network, prompt: r.prompt }),
  }));
}

/** People who can label: accounts that sign in with a role allowed to write labels. */
export async function labellers(): Promise<Array<{ id: string; handle: string; name: string; role: string }>> {
  return db().user.findMany({
    where: { role: { in: ["ANNOTATOR", "RESEARCHER"] }, accounts: { some: { providerId: "credential" } } },
    orderBy: { handle: "asc" },
    select: { id: true, handle: true, name: true, role: true },
  });
}

/** Draws the sample and assigns it, without saving. */
export async function draftStudy(actor: Actor, input: unknown): Promise<StudyDraft> {
  return (await draw(actor, input)).draft;
}

/** The draft, and the user ids of the handles it assigns (createStudy writes them). */
async function draw(actor: Actor, input: unknown): Promise<{ draft: StudyDraft; userIds: Map<string, string> }> {
  assertCan(actor, "studies:write");
  const design = StudyDesignSchema.parse(input);
  const userIds = new Map((await labellers()).map((u) => [u.handle, u.id]));
  const unknown = design.annotators.filter((h) => !userIds.has(h));
  if (unknown.length) throw new StudyError(`not annotators who can sign in: ${unknown.join(", ")}`, "annotators");
  const pool = await candidates();
  const sizeOf = (s: string) => design.sizes[s] ?? design.size;
  const drawn = drawSample(
    pool,
    Object.fromEntries([...new Set(pool.map((c) => c.stratum))].map((s) => [s, sizeOf(s)])),
    design.seed,
  );
  let assignment: Map<number, string[]>;
  try {
    assignment = assignAnnotators(drawn, design.annotators, design.overlap, design.seed);
  } catch (e) {
    throw new StudyError(e instanceof Error ? e.message : String(e), "overlap");
  }
  const items = drawn.map((d) => ({
    trajectoryId: d.id,
    stratum: d.stratum,
    position: d.position,
    annotators: assignment.get(d.id)!,
  }));
  const draft = {
    design,
    items,
    digest: draftDigest(items),
    strata: tallyStrata(pool, drawn, sizeOf),
    load: annotatorLoad(items, design.annotators),
  };
  return { draft, userIds };
}

/** Saves a study exactly as previewed (digest), or refuses. */
export async function createStudy(actor: Actor, input: unknown, digest: string): Promise<number> {
  const { draft, userIds: users } = await draw(actor, input);
  if (!draft.items.length) throw new StudyError("the draw is empty: raise the size per stratum", "size");
  if (draft.digest !== digest)
    throw new StudyError("the trajectories changed since the preview: preview the draw again before saving");
  const categories = await transaction(panelCategories);
  return db().$transaction(async (tx) => {
    if (await tx.study.findUnique({ where: { name: draft.design.name }, select: { id: true } }))
      throw new StudyError(`a study named "${draft.design.name}" exists`, "name");
    const study = await tx.study.create({
      data: {
        name: draft.design.name,
        seed: draft.design.seed,
        overlap: draft.design.overlap,
        blind: draft.design.blind,
        blindElsewhere: draft.design.blindElsewhere,
        categories,
        createdById: actor.id,
        design: { size: draft.design.size, sizes: draft.design.sizes, annotators: draft.design.annotators, digest },
      },
      select: { id: true },
    });
    await tx.studyItem.createMany({
      data: draft.items.map((i) => ({
        studyId: study.id,
        trajectoryId: i.trajectoryId,
        stratum: i.stratum,
        position: i.position,
      })),
    });
    const ids = new Map(
      (await tx.studyItem.findMany({ where: { studyId: study.id }, select: { id: true, trajectoryId: true } })).map(
        (r) => [r.trajectoryId, r.id],
      ),
    );
    await tx.studyAssignment.createMany({
      data: draft.items.flatMap((i) =>
        i.annotators.map((h) => ({ studyItemId: ids.get(i.trajectoryId)!, annotatorId: users.get(h)! })),
      ),
    });
    return study.id;
  });
}

export type Progress = { handle: string; name: string; assigned: number; done: number };
export type StudySummary = {
  id: number;
  name: string;
  seed: string;
  overlap: number;
  blind: boolean;
  blindElsewhere: boolean;
  createdAt: Date;
  createdBy: string | null;
  items: number;
  progress: Progress[];
};

/** Each annotator's done / assigned in each study; an item is done when its annotator has a label on it. */
async function progressOf(studyIds: readonly number[], annotatorId?: string): Promise<Map<number, Progress[]>> {
  const rows = await statement<{ studyId: number; handle: string; name: string; assigned: number; done: number }>(
    `
    SELECT i."studyId", u.handle, u.name, count(*)::int AS assigned, count(l.id)::int AS done
    FROM study_assignment a JOIN study_item i ON i.id = a."studyItemId" JOIN "user" u ON u.id = a."annotatorId"
    LEFT JOIN label l ON l."trajectoryId" = i."trajectoryId" AND l."annotatorId" = a."annotatorId"
    WHERE i."studyId" = ANY($1::int[]) AND ($2::text IS NULL OR a."annotatorId" =
      $2)
    GROUP BY i."studyId", u.handle, u.name ORDER BY u.handle`,
    [[...studyIds], annotatorId ?? null],
  );
  const out = new Map<number, Progress[]>();
  for (const r of rows)
    out.set(r.studyId, [
      ...(out.get(r.studyId) ?? []),
      { handle: r.handle, name: r.name, assigned: r.assigned, done: r.done },
    ]);
  return out;
}

export async function listStudies(actor: Actor): Promise<StudySummary[]> {
  assertCan(actor, "studies:read");
  const studies = await db().study.findMany({
    orderBy: { id: "desc" },
    select: {
      id: true,
      name: true,
      seed: true,
      overlap: true,
      blind: true,
      blindElsewhere: true,
      createdAt: true,
      createdBy: { select: { handle: true } },
      _count: { select: { items: true } },
    },
  });
  const progress = await progressOf(studies.map((s) => s.id));
  return studies.map(({ createdBy, _count, ...s }) => ({
    ...s,
    createdBy: createdBy?.handle ?? null,
    items: _count.items,
    progress: progress.get(s.id) ?? [],
  }));
}

export type QueueStudy = {
  id: number;
  name: string;
  blind: boolean;
  assigned: number;
  done: number;
  next: number | null;
};

/** The studies that assign the actor items, with their progress and the next item to label. */
export async function myQueue(actor: Actor): Promise<QueueStudy[]> {
  assertCan(actor, "labels:write");
  const studies = await db().study.findMany({
    where: { items: { some: { assignments: { some: { annotatorId: actor.id } } } } },
    orderBy: { id: "desc" },
    select: { id: true, name: true, blind: true },
  });
  const progress = await progressOf(
    studies.map((s) => s.id),
    actor.id,
  );
  return Promise.all(
    studies.map(async (s) => {
      const p = progress.get(s.id)?.[0];
      return { ...s, assigned: p?.assigned ?? 0, done: p?.done ?? 0, next: await nextPosition(actor, s.id) };
    }),
  );
}

/** The position of the actor's first unlabelled item in a study, after `after` if given, wrapping. */
export async function nextPosition(actor: Actor, studyId: number, after = -1): Promise<number | null> {
  const rows = await statement<{ position: number }>(
    `
    SELECT i.position FROM study_item i JOIN study_assignment a ON a."studyItemId" = i.id AND a."annotatorId" =
      $1
    WHERE i."studyId" = $2
      AND NOT EXISTS (SELECT 1 FROM label l WHERE l."trajectoryId" = i."trajectoryId" AND l."annotatorId" = $1)
    ORDER BY (i.position <= $3), i.position LIMIT 1`,
    [actor.id, studyId, after],
  );
  return rows[0]?.position ?? null;
}

export async function isAssigned(userId: string, trajectoryId: number): Promise<boolean> {
  return (await db().studyAssignment.count({ where: { annotatorId: userId, studyItem: { trajectoryId } } })) > 0;
}
