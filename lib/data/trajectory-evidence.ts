import "server-only";
// A trajectory's task record and evidence beside its timeline; every trajectory's for `evidence`.
import { db } from "@/lib/db";
import type { EvidenceKind } from "@/lib/domain/evidence";
import type { EvidenceReportRow } from "@/lib/domain/evidence-format";
import { sortEvidence } from "@/lib/domain/evidence-format";
import type { NaturalKey } from "@/lib/formats/interchange";
import { readByTheRules } from "./rule-matches";
import { statement } from "./sql";

export type EvidenceView = {
  kind: EvidenceKind;
  step: number;
  category: string | null;
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
    category: e.category,
    detail: e.detail,
    lines: Array.isArray(e.lines) ? e.lines.filter((l): l is string => typeof l === "string") : [],
  }));
  return { record, items, similarity: trajectory?.patchSimilarity ?? null };
}

/** Every trajectory's evidence, or `only` one's, read by the rules first (categories come from kept hits). */
export async function evidenceReport(only?: number): Promise<EvidenceReportRow[]> {
  if (only !== undefined) await readByTheRules(only);
  const rows = await statement<
    NaturalKey & {
      id: number;
      externalId: string | null;
      patchSimilarity: number | null;
      items: EvidenceReportRow["items"] | null;
    }
  >(
    `SELECT t.id, t."externalId", b.name AS benchmark, m.name AS model, k.key AS task, t.network,
           t.prompt::text AS prompt, t.run, t."patchSimilarity",
           (SELECT json_agg(json_build_object('kind', e.kind, 'step', e.step, 'category', e.category,
                                              'detail', e.detail)
                            ORDER BY e.seq) FROM evidence e WHERE e."trajectoryId" = t.id) AS items
      FROM trajectory t
      JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
      JOIN task k ON k.id = t."taskId" JOIN task_record r ON r."instanceId" = k.key
     WHERE $1::int IS NULL OR t.id = $1`,
    [only ?? null],
  );
  return sortEvidence(
    rows.map(({ id: _id, externalId, patchSimilarity, items, ...key }) => ({
      trajectory: { id: externalId, ...key },
      patch_similarity: patchSimilarity,
      items: items ?? [],
    })),
  );
}
