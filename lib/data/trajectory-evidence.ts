import "server-only";
// What a trajectory's task record says beside its timeline: the issue, the reference and test
// patches, the evidence items and the final patch's similarity to the reference.
import { db } from "@/lib/db";
import type { EvidenceKind } from "@/lib/domain/evidence";
import type { Category } from "@/lib/domain/verdicts";
import { readByTheRules } from "./rule-matches";

export type EvidenceView = {
  kind: EvidenceKind;
  step: number;
  category: Category | null;
  detail: string;
  lines: string[];
};

export async function getTaskEvidence(trajectoryId: number, taskKey: string) {
  // Its items' categories come from the rules' kept hits: read first by every rule that has not.
  await readByTheRules(trajectoryId);
  const [record, trajectory] = await Promise.all([
    db().taskRecord.findUnique({
      where: { instanceId: taskKey },
      select: { problemStatement: true, patch: true, testPatch: true, createdAt: true, hintsText: true },
    }),
    db().trajectory.findUnique({
      where: { id: trajectoryId },
      select: {
        patchSimilarity: true,
        evidence: {
          orderBy: { seq: "asc" },
          select: { kind: true, step: true, category: true, detail: true, lines: true },
        },
      },
    }),
  ]);
  const items: EvidenceView[] = (trajectory?.evidence ?? []).map((e) => ({
    kind: e.kind as EvidenceKind,
    step: e.step,
    category: e.category as Category | null,
    detail: e.detail,
    lines: Array.isArray(e.lines) ? e.lines.filter((l): l is string => typeof l === "string") : [],
  }));
  return { record, items, similarity: trajectory?.patchSimilarity ?? null };
}
