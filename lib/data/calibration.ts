import "server-only";
// Judge runs' answers by prompt version beside the human and gold labels (lib/domain/calibration.ts).
import { db } from "@/lib/db";
import { type CalibrationRow, calibration, type VersionAnswer } from "@/lib/domain/calibration";
import { parseJudgeAnswer } from "@/lib/domain/judge-answer";
import { overallVerdict } from "@/lib/domain/verdicts";
import { type AgreementScope, studyTrajectories } from "./agreement";
import { goldInForce } from "./gold";
import { askedCategories } from "./import/votes";
import { transaction } from "./sql";

export async function getCalibration(scope: AgreementScope = {}): Promise<CalibrationRow[]> {
  const items = await studyTrajectories(scope);
  const labels = await db().label.findMany({
    where: items ? { studyId: scope.studyId, trajectoryId: { in: items } } : {},
    select: { trajectoryId: true, overall: true, revisedAfterUnblinding: true, blindOverall: true },
  });
  const gold = await goldInForce(items);
  if (!labels.length && !gold.size) return [];
  const rated = new Set([...labels.map((l) => l.trajectoryId), ...gold.keys()]);
  const answered = await db().judgeRequest.findMany({
    where: { status: "DONE", trajectoryId: { in: [...rated] } },
    orderBy: { answeredAt: "asc" },
    select: { trajectoryId: true, promptVersion: true, raw: true, judge: { select: { name: true } } },
  });
  const asked = await transaction((sql) =>
    askedCategories(
      sql,
      answered.map((a) => a.promptVersion),
    ),
  );
  // The newest answer of each judge on each trajectory under each version (a re-imported trajectory is asked again).
  const answers = new Map<string, VersionAnswer>();
  for (const a of answered)
    answers.set(`${a.trajectoryId}:${a.judge.name}:${a.promptVersion}`, {
      trajectoryId: a.trajectoryId,
      judge: a.judge.name,
      promptVersion: a.promptVersion,
      overall: overallVerdict(parseJudgeAnswer(a.raw ?? "", asked.get(a.promptVersion)!).verdicts),
    });
  return calibration(
    labels.map((l) => ({
      trajectoryId: l.trajectoryId,
      human: scope.firstForms && l.revisedAfterUnblinding ? (l.blindOverall ?? l.overall) : l.overall,
    })),
    [...answers.values()],
    [...gold].map(([trajectoryId, human]) => ({ trajectoryId, human })),
  );
}
