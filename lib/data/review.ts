import "server-only";
// The review queue: disagreements, strongest first, and gold labels written from it (decision 27).
import { type Actor, assertCan } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { type Disagreement, disagreement, reviewOrder } from "@/lib/domain/review";
import { storableText } from "@/lib/domain/text";
import { overallVerdict, sameVerdicts, type Verdict } from "@/lib/domain/verdicts";
import { withheldIds } from "./blind-elsewhere";
import { categoriesGiven } from "./categories";
import { voteVerdicts } from "./derived";
import { refreshGold } from "./gold";
import { askedOrRefused, LabelConflict, type LabelForm, LabelFormSchema } from "./queue";
import { ITEM_TRAJECTORY_SELECT, PERSON_VERDICT_FIELDS } from "./selects";
import { transaction } from "./sql";

export type ReviewItem = Disagreement & {
  position: number;
  trajectoryId: number;
  task: string;
  model: string;
  network: boolean;
  prompt: string;
  panel: Verdict | null;
  gold: Verdict | null;
  adjudicated: boolean;
  labels: Array<{ annotator: string; overall: Verdict }>;
};

/** The study's items that need adjudicating, in review order; not those withheld from the actor now. */
export async function reviewQueue(actor: Actor, studyId: number): Promise<ReviewItem[]> {
  assertCan(actor, "gold:write");
  const items = await db().studyItem.findMany({
    where: { studyId, trajectoryId: { notIn: await withheldIds(actor) } },
    select: {
      position: true,
      trajectory: {
        select: {
          id: true,
          network: true,
          prompt: true,
          panelVerdict: true,
          goldOverall: true,
          task: { select: { key: true } },
          model: { select: { name: true } },
          labels: {
            where: { studyId },
            orderBy: { annotator: { handle: "asc" } },
            select: { overall: true, annotator: { select: { handle: true } } },
          },
        },
      },
    },
  });
  const found = items.flatMap((i) => {
    const t = i.trajectory;
    const d = disagreement(
      t.labels.map((l) => l.overall),
      t.panelVerdict,
    );
    if (!d) return [];
    return [
      {
        ...d,
        position: i.position,
        trajectoryId: t.id,
        task: t.task.key,
        model: t.model.name,
        network: t.network,
        prompt: t.prompt,
        panel: t.panelVerdict,
        gold: t.goldOverall,
        adjudicated: t.goldOverall !== null,
        labels: t.labels.map((l) => ({ annotator: l.annotator.handle, overall: l.overall })),
      },
    ];
  });
  return reviewOrder(found);
}

/** One item of the review: every annotator's label in the study, and the gold label's history. */
export async function reviewItem(actor: Actor, studyId: number, trajectoryId: number) {
  assertCan(actor, "gold:write");
  const item = await db().studyItem.findFirst({
    where: { studyId, trajectoryId },
    select: {
      position: true,
      study: { select: { id: true, name: true, categories: true } },
      trajectory: { select: ITEM_TRAJECTORY_SELECT },
    },
  });
  if (!item) return null;
  const [labels, history] = await Promise.all([
    db().label.findMany({
      where: { studyId, trajectoryId },
      orderBy: { annotator: { handle: "asc" } },
      select: { ...PERSON_VERDICT_FIELDS, revisedAfterUnblinding: true, annotator: { select: { handle: true } } },
    }),
    db().goldLabel.findMany({
      where: { trajectoryId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { ...PERSON_VERDICT_FIELDS, createdAt: true, adjudicator: { select: { handle: true } } },
    }),
  ]);
  const current = history[0];
  const rated = labels.map((l) => voteVerdicts(l));
  return {
    study: item.study,
    /** The labels' columns: the study's categories, then any other a label gives. */
    categories: await categoriesGiven(rated, item.study.categories),
    position: item.position,
    trajectory: item.trajectory,
    labels: labels.map((l) => ({ ...l, annotator: l.annotator.handle, verdicts: voteVerdicts(l) })),
    history: history.map((g) => ({ ...g, adjudicator: g.adjudicator.handle, verdicts: voteVerdicts(g) })),
    /** The gold label in force as the form's starting point (its time is the version a save is based on). */
    gold: current
      ? {
          verdicts: voteVerdicts(current),
          evidence: Array.isArray(current.evidence) ? (current.evidence as never[]) : [],
          note: current.note,
          updatedAt: current.createdAt.toISOString(),
        }
      : null,
  };
}

/** Writes a gold label as a new version unless it repeats the one in force; a form on an older base is refused. */
export async function saveGold(actor: Actor, input: LabelForm): Promise<{ status: "saved" | "unchanged" }> {
  assertCan(actor, "gold:write");
  const f = LabelFormSchema.parse(input);
  const inStudy = await db().studyItem.findFirst({
    where: { studyId: f.studyId, trajectoryId: f.trajectoryId },
    select: { id: true, study: { select: { categories: true } } },
  });
  if (!inStudy) throw new LabelConflict("this trajectory is not an item of that study");
  askedOrRefused(inStudy.study.categories, f.verdicts, f.evidence);
  const evidence = [...f.evidence]
    .sort((a, b) => a.step - b.step)
    .map((e) => ({ step: e.step, category: e.category, note: e.note === null ? null : storableText(e.note) }));
  const note = f.note?.trim() ? storableText(f.note.trim()) : null;
  return transaction(async (sql) => {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`gold:${f.trajectoryId}`]);
    const [newest] = await sql.query<{
      createdAt: Date;
      verdicts: unknown;
      evidence: unknown;
      note: string | null;
    }>(
      `SELECT "createdAt", verdicts, evidence, note FROM gold_label
        WHERE "trajectoryId" = $1 ORDER BY "createdAt" DESC, id DESC LIMIT 1`,
      [f.trajectoryId],
    );
    if (newest) {
      const same =
        sameVerdicts(voteVerdicts(newest), f.verdicts) &&
        JSON.stringify(newest.evidence) === JSON.stringify(evidence) &&
        (newest.note ?? "") === (note ?? "");
      if (same) return { status: "unchanged" as const };
      if (newest.createdAt.toISOString() !== f.base)
        throw new LabelConflict(
          `the gold label was changed at ${newest.createdAt.toISOString()} (by someone else, or another tab); ` +
            "reload to see it before changing it",
        );
    }
    const at = new Date(Math.max(Date.now(), newest ? newest.createdAt.getTime() + 1 : 0));
    await sql.query(
      `INSERT INTO gold_label ("trajectoryId", "adjudicatorId", verdicts, overall, evidence, note, "createdAt",
         "madeWith")
       VALUES ($1, $2, $3::jsonb, $4::"Verdict", $5::jsonb, $6, $7, 'form')`,
      [
        f.trajectoryId,
        actor.id,
        JSON.stringify(f.verdicts),
        overallVerdict(f.verdicts),
        JSON.stringify(evidence),
        note,
        at.toISOString(),
      ],
    );
    await refreshGold(sql, [f.trajectoryId]);
    return { status: "saved" as const };
  });
}
