import "server-only";
// Human labels (newest form, one per annotator and trajectory) with their trajectory's panel
// verdict and each judge's overall verdict, for the agreement report (lib/domain/agreement-report.ts).
import { db } from "@/lib/db";
import { agreementReport, type AgreementReport, type GoldPoint, type LabelPoint } from "@/lib/domain/agreement-report";
import { goldInForce } from "./gold";

export async function getLabelPoints(): Promise<LabelPoint[]> {
  const labels = await db().label.findMany({
    orderBy: [{ trajectoryId: "asc" }, { annotatorId: "asc" }],
    select: {
      overall: true,
      annotator: { select: { handle: true } },
      trajectory: {
        select: {
          id: true,
          network: true,
          prompt: true,
          panelVerdict: true,
          benchmark: { select: { name: true } },
          model: { select: { name: true } },
          votes: { select: { overall: true, judge: { select: { name: true } } } },
        },
      },
    },
  });
  return labels.map((l) => ({
    trajectoryId: l.trajectory.id,
    annotator: l.annotator.handle,
    human: l.overall,
    panel: l.trajectory.panelVerdict,
    judges: Object.fromEntries(l.trajectory.votes.map((v) => [v.judge.name, v.overall])),
    benchmark: l.trajectory.benchmark.name,
    model: l.trajectory.model.name,
    network: l.trajectory.network,
    prompt: l.trajectory.prompt,
  }));
}

/** The gold labels in force, with their trajectories' panel and judges' verdicts. */
export async function getGoldPoints(): Promise<GoldPoint[]> {
  const gold = await goldInForce();
  if (!gold.size) return [];
  const trajectories = await db().trajectory.findMany({
    where: { id: { in: [...gold.keys()] } },
    orderBy: { id: "asc" },
    select: { id: true, panelVerdict: true, votes: { select: { overall: true, judge: { select: { name: true } } } } },
  });
  return trajectories.map((t) => ({
    trajectoryId: t.id,
    gold: gold.get(t.id)!,
    panel: t.panelVerdict,
    judges: Object.fromEntries(t.votes.map((v) => [v.judge.name, v.overall])),
  }));
}

export async function getAgreement(): Promise<AgreementReport> {
  return agreementReport(await getLabelPoints(), await getGoldPoints());
}
