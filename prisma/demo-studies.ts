// The demo's annotation studies, made through the app's own paths (drawn, saved, labelled in the
// queue, adjudicated by import), so that each demo account finds its part of the work at once:
// - "demo pilot (finished)": every item labelled by Carol (annotator) and Rosa (researcher), who
//   disagree on some; the demo reviewer Rey has adjudicated three of those disagreements;
// - "demo blind study": Carol's, blind, with two items labelled and the rest waiting;
// - "demo researcher's blind check": Rosa's two blind items, withheld from her elsewhere until labelled;
// and a frozen report of the figures as loaded, with a read-only link.
// A label is the trajectory's panel verdicts (not attempted where unjudged); Rosa differs on local
// git on every third item.

import type { Actor } from "@/lib/auth/permissions";
import { submitLabel } from "@/lib/data/queue";
import { shareReport } from "@/lib/data/report-links";
import { createStudy, draftStudy } from "@/lib/data/studies";
import { db } from "@/lib/db";
import { type Verdict, type Verdicts, verdictMap } from "@/lib/domain/verdicts";
import { runImport } from "@/lib/work/import/records";
import { freezeReport } from "@/lib/work/reports/frozen";
import { scanRuleHits } from "@/lib/work/rule-scan/scan";

async function actor(email: string): Promise<Actor> {
  const u = await db().user.findUniqueOrThrow({ where: { email }, select: { id: true, handle: true, role: true } });
  return u as Actor;
}

/** The panel's verdicts in each category the study asks (none given: not attempted). */
async function panelVerdicts(studyId: number, trajectoryId: number): Promise<Verdicts> {
  const [t, s] = await Promise.all([
    db().trajectory.findUniqueOrThrow({ where: { id: trajectoryId }, select: { panelCategories: true } }),
    db().study.findUniqueOrThrow({ where: { id: studyId }, select: { categories: true } }),
  ]);
  const panel = verdictMap(t.panelCategories);
  return Object.fromEntries(s.categories.map((k) => [k, panel[k] ?? "NOT_ATTEMPTED"]));
}

async function label(who: Actor, studyId: number, trajectoryId: number, verdicts: Verdicts): Promise<void> {
  // An imported demo label of the same person on the trajectory is the version this one replaces.
  const stored = await db().label.findUnique({
    where: { trajectoryId_annotatorId: { trajectoryId, annotatorId: who.id } },
    select: { updatedAt: true },
  });
  await submitLabel(who, {
    studyId,
    trajectoryId,
    verdicts,
    evidence: [],
    note: null,
    base: stored?.updatedAt.toISOString() ?? "",
  });
}

async function study(by: Actor, design: Record<string, unknown>) {
  const draft = await draftStudy(by, design);
  return { id: await createStudy(by, design, draft.digest), items: draft.items };
}

export async function seedDemoStudies(): Promise<{
  studies: number;
  labels: number;
  gold: number;
  sharedReport: string;
}> {
  const [rosa, carol] = await Promise.all([actor("researcher@example.org"), actor("annotator@example.org")]);
  let labels = 0;
  const pilot = await study(rosa, {
    name: "demo pilot (finished)",
    seed: "pilot",
    size: 1,
    overlap: 2,
    blind: false,
    annotators: [carol.handle, rosa.handle],
  });
  const disagreements: Array<{ trajectoryId: number; verdicts: Verdicts }> = [];
  for (const [i, item] of pilot.items.entries()) {
    const verdicts = await panelVerdicts(pilot.id, item.trajectoryId);
    await label(carol, pilot.id, item.trajectoryId, verdicts);
    const flipped: Verdict = verdicts.LOCAL_GIT === "NOT_ATTEMPTED" ? "ATTEMPTED" : "NOT_ATTEMPTED";
    const rosas: Verdicts = i % 3 === 0 ? { ...verdicts, LOCAL_GIT: flipped } : verdicts;
    await label(rosa, pilot.id, item.trajectoryId, rosas);
    labels += 2;
    if (rosas !== verdicts) disagreements.push({ trajectoryId: item.trajectoryId, verdicts });
  }
  const ids = new Map(
    (
      await db().trajectory.findMany({
        where: { id: { in: disagreements.map((d) => d.trajectoryId) } },
        select: { id: true, externalId: true },
      })
    ).map((t) => [t.id, t.externalId]),
  );
  const gold = disagreements.slice(0, 3).map((d, i) => ({
    line: i + 1,
    value: {
      type: "gold",
      trajectory: { id: ids.get(d.trajectoryId) },
      adjudicator: "rey",
      verdicts: d.verdicts,
      note: "the panel and Carol are right: the git commands stay at the base commit",
      created_at: new Date(Date.UTC(2026, 10, 25, 10, i)).toISOString(),
    },
  }));
  const adjudicated = await runImport({ fileName: "demo adjudication", format: "interchange", source: "seed" }, gold);
  if (!adjudicated.ok) throw new Error(`demo gold labels rejected: ${JSON.stringify(adjudicated.errors)}`);

  const blind = await study(rosa, {
    name: "demo blind study",
    seed: "blind",
    size: 1,
    overlap: 1,
    blind: true,
    annotators: [carol.handle],
  });
  for (const item of blind.items.slice(0, 2)) {
    await label(carol, blind.id, item.trajectoryId, await panelVerdicts(blind.id, item.trajectoryId));
    labels += 1;
  }
  // Rosa's own blind study of two trajectories, unlabelled: they are withheld from her elsewhere.
  const strata = (
    await draftStudy(rosa, { name: "x", seed: "x", size: 0, overlap: 1, blind: true, annotators: [rosa.handle] })
  ).strata;
  await study(rosa, {
    name: "demo researcher's blind check",
    seed: "check",
    size: 0,
    sizes: { [strata[0]!.stratum]: 2 },
    overlap: 1,
    blind: true,
    annotators: [rosa.handle],
  });
  // A frozen report of the demo's figures, with a read-only link (its path is printed once, at start):
  // once the rules' scan has read every trajectory, as a report is frozen.
  await scanRuleHits();
  const shared = await shareReport(rosa, await freezeReport(rosa, "demo: figures as first loaded"), null);
  return { studies: 3, labels, gold: gold.length, sharedReport: `/r/${shared}` };
}
