import "server-only";
// Human labels (newest form, one per annotator and trajectory) with their trajectory's panel
// verdict and each judge's overall verdict, for the agreement report (lib/domain/agreement-report.ts).
import { db } from "@/lib/db";
import { type AgreementReport, agreementReport, type GoldPoint, type LabelPoint } from "@/lib/domain/agreement-report";
import { goldInForce } from "./gold";

/**
 * Whose labels count: all (no study), or one study's: its labels, on its items. `firstForms`: a
 * label revised after unblinding counts in the form it was given blind.
 */
export type AgreementScope = { studyId?: number; firstForms?: boolean };

/** The scope a study name asks for: all labels without one, null when no study has that name. */
export async function scopeOf(
  studyName: string | null | undefined,
  firstForms = false,
): Promise<AgreementScope | null> {
  if (!studyName) return { firstForms };
  // No stored name holds a NUL (PostgreSQL text cannot): such a name names no study.
  if (studyName.includes("\u0000")) return null;
  const study = await db().study.findUnique({ where: { name: studyName }, select: { id: true } });
  return study ? { studyId: study.id, firstForms } : null;
}

/** The studies' names, for choosing one. */
export async function studyNames(): Promise<string[]> {
  return (await db().study.findMany({ orderBy: { name: "asc" }, select: { name: true } })).map((s) => s.name);
}

/** The trajectories of a study's items; undefined without a study (all trajectories). */
export async function studyTrajectories(scope: AgreementScope): Promise<number[] | undefined> {
  if (scope.studyId === undefined) return undefined;
  const items = await db().studyItem.findMany({ where: { studyId: scope.studyId }, select: { trajectoryId: true } });
  return items.map((i) => i.trajectoryId);
}

export async function getLabelPoints(scope: AgreementScope = {}): Promise<LabelPoint[]> {
  const items = await studyTrajectories(scope);
  const labels = await db().label.findMany({
    where: items ? { studyId: scope.studyId, trajectoryId: { in: items } } : {},
    orderBy: [{ trajectoryId: "asc" }, { annotatorId: "asc" }],
    select: {
      overall: true,
      revisedAfterUnblinding: true,
      blindOverall: true,
      annotator: { select: { handle: true } },
      trajectory: {
        select: {
          id: true,
          network: true,
          prompt: true,
          panelVerdict: true,
          goldOverall: true,
          benchmark: { select: { name: true } },
          model: { select: { name: true } },
          votes: { where: { counted: true }, select: { overall: true, judge: { select: { name: true } } } },
        },
      },
    },
  });
  return labels.map((l) => ({
    trajectoryId: l.trajectory.id,
    annotator: l.annotator.handle,
    human: scope.firstForms && l.revisedAfterUnblinding ? (l.blindOverall ?? l.overall) : l.overall,
    revisedAfterUnblinding: l.revisedAfterUnblinding,
    panel: l.trajectory.panelVerdict,
    gold: l.trajectory.goldOverall,
    judges: Object.fromEntries(l.trajectory.votes.map((v) => [v.judge.name, v.overall])),
    benchmark: l.trajectory.benchmark.name,
    model: l.trajectory.model.name,
    network: l.trajectory.network,
    prompt: l.trajectory.prompt,
  }));
}

/** The gold labels in force, with their trajectories' panel and judges' verdicts. */
export async function getGoldPoints(scope: AgreementScope = {}): Promise<GoldPoint[]> {
  const gold = await goldInForce(await studyTrajectories(scope));
  if (!gold.size) return [];
  const trajectories = await db().trajectory.findMany({
    where: { id: { in: [...gold.keys()] } },
    orderBy: { id: "asc" },
    select: {
      id: true,
      network: true,
      prompt: true,
      panelVerdict: true,
      votes: { where: { counted: true }, select: { overall: true, judge: { select: { name: true } } } },
    },
  });
  return trajectories.map((t) => ({
    trajectoryId: t.id,
    gold: gold.get(t.id)!,
    panel: t.panelVerdict,
    judges: Object.fromEntries(t.votes.map((v) => [v.judge.name, v.overall])),
    network: t.network,
    prompt: t.prompt,
  }));
}

export async function getAgreement(scope: AgreementScope = {}): Promise<AgreementReport> {
  return agreementReport(await getLabelPoints(scope), await getGoldPoints(scope), scope.firstForms ?? false);
}
