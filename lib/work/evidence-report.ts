import "server-only";

// The evidence of every trajectory that has a task record, for `evidence --format json|csv`.

import { readByTheRules } from "@/lib/data/rule-matches";
import { db } from "@/lib/db";
import { type EvidenceReportRow, evidenceCsv, evidenceJson, sortEvidence } from "@/lib/domain/evidence-format";
import type { NaturalKey } from "@/lib/formats/interchange";
import { ruleHitsCaughtUp } from "@/lib/work/rule-scan/scan";

/**
 * `only`: one trajectory's (by its id in the database), read first by every rule that has not (its
 * items' categories come from the rules' kept hits).
 */
export async function evidenceReport(only?: number): Promise<EvidenceReportRow[]> {
  if (only !== undefined) await readByTheRules(only);
  const rows = await db().$queryRaw<
    Array<
      NaturalKey & {
        id: number;
        externalId: string | null;
        patchSimilarity: number | null;
        items: EvidenceReportRow["items"] | null;
      }
    >
  >`SELECT t.id, t."externalId", b.name AS benchmark, m.name AS model, k.key AS task, t.network,
           t.prompt::text AS prompt, t.run, t."patchSimilarity",
           (SELECT json_agg(json_build_object('kind', e.kind, 'step', e.step, 'category', e.category,
                                              'detail', e.detail)
                            ORDER BY e.seq) FROM evidence e WHERE e."trajectoryId" = t.id) AS items
      FROM trajectory t
      JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
      JOIN task k ON k.id = t."taskId" JOIN task_record r ON r."instanceId" = k.key
     WHERE ${only ?? null}::int IS NULL OR t.id = ${only ?? null}`;
  return sortEvidence(
    rows.map(({ id: _id, externalId, patchSimilarity, items, ...key }) => ({
      trajectory: { id: externalId, ...key },
      patch_similarity: patchSimilarity,
      items: items ?? [],
    })),
  );
}

/**
 * Every trajectory's evidence, once the rules' scan has read them (its items' categories come from
 * the kept hits), waiting for it up to `waitMs` (the API; the command line runs the scan first): a
 * study just imported at scale may then show some items not yet categorized.
 */
export async function evidenceText(format: "json" | "csv", waitMs: number): Promise<string> {
  await ruleHitsCaughtUp(waitMs);
  const rows = await evidenceReport();
  return format === "json" ? evidenceJson(rows) : evidenceCsv(rows);
}
