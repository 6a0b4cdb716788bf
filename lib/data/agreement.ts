import "server-only";
// Human labels (newest form, one per annotator and trajectory) with their trajectory's panel
// verdict and each judge's overall verdict, for the agreement report (lib/domain/agreement-report.ts).
import { db } from "@/lib/db";
import { agreementReport, type AgreementReport, type LabelPoint } from "@/lib/domain/agreement-report";

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

export async function getAgreement(): Promise<AgreementReport> {
  return agreementReport(await getLabelPoints());
}
