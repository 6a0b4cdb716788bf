import "server-only";
import { type EvidenceSummaryRow, LOW_SIMILARITY } from "@/lib/domain/evidence";
// Per condition, among trajectories whose task has a record: how many show evidence, how the panel
// judged those, and the two disagreements worth a look: evidence the panel called NOT_ATTEMPTED
// (likely judge misses) and panel SUCCESSFUL with no evidence and a final patch unlike the
// reference (likely false alarms).
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
             AS "falseAlarms"
      FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
     WHERE t."taskRecorded"
     GROUP BY b.name, m.name, t.network, t.prompt
     ORDER BY b.name, m.name, t.network, t.prompt`,
    [LOW_SIMILARITY],
  );
}
