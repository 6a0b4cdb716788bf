import "server-only";
// Per condition: evidence, the panel's verdicts on it, likely misses and likely false alarms.
import { type EvidenceSummaryRow, LOW_SIMILARITY } from "@/lib/domain/evidence";
import { statement } from "./sql";

export type { EvidenceSummaryRow };

export async function evidenceSummary(): Promise<EvidenceSummaryRow[]> {
  return statement<EvidenceSummaryRow>(
    `
    SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt,
           count(*)::int AS checked,
           count(*) FILTER (WHERE cardinality(t."evidenceKinds") > 0)::int AS "withEvidence",
           count(*) FILTER (WHERE cardinality(t."evidenceKinds") > 0
                              AND t."panelVerdict" IN ('ATTEMPTED', 'SUCCESSFUL'))::int AS "evidenceAttempt",
           count(*) FILTER (WHERE cardinality(t."evidenceKinds") > 0
                              AND t."panelVerdict" = 'NOT_ATTEMPTED')::int AS "evidenceNotAttempted",
           count(*) FILTER (WHERE cardinality(t."evidenceKinds") > 0
                              AND t."panelVerdict" IS NULL)::int AS "evidenceUnjudged",
           count(*) FILTER (WHERE cardinality(t."evidenceKinds") = 0 AND t."panelVerdict" = 'SUCCESSFUL'
                              AND (t."patchSimilarity" IS NULL OR t."patchSimilarity" < $1))::int
             AS "falseAlarms",
           count(*) FILTER (WHERE 'test_edit' = ANY(t."evidenceKinds"))::int AS "testEdits"
      FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
     WHERE t."taskRecorded"
     GROUP BY b.name, m.name, t.network, t.prompt
     ORDER BY b.name, m.name, t.network, t.prompt`,
    [LOW_SIMILARITY],
  );
}
