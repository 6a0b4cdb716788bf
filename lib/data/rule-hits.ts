import "server-only";
// Per condition, the trajectories some enabled rule in force fires on, from the kept hits (decision 40).
import type { RuleHitsRow } from "@/lib/domain/rule-hits-table";
import { CATEGORIES, type Category } from "@/lib/domain/verdicts";

import { transaction } from "./sql";

// Each fired trajectory once with its categories, hash-joined (correlated EXISTS took 132 s at 150,000).
const RULE_HITS_SQL = `
  WITH h AS (SELECT m."trajectoryId" AS id,
      ${CATEGORIES.map((c) => `bool_or(l.category = '${c}') AS "${c}"`).join(", ")}
    FROM rule_match m JOIN rules_in_force() l ON l.id = m."ruleId" WHERE l.enabled GROUP BY 1)
  SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt, count(*)::int AS trajectories,
    count(h.id)::int AS any,
    ${CATEGORIES.map((c) => `count(*) FILTER (WHERE h."${c}")::int AS "${c}"`).join(",\n    ")}
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
    LEFT JOIN h ON h.id = t.id
  GROUP BY 1, 2, 3, 4`;

/** Read as the hits stand: the caller waits for the scan first (lib/work/rule-scan/scan.ts). */
export async function getRuleHits(): Promise<RuleHitsRow[]> {
  const rows = await transaction((sql) => sql.query<RuleHitsRow & Record<Category | "any", number>>(RULE_HITS_SQL));
  return rows.map((r) => ({
    benchmark: r.benchmark,
    model: r.model,
    network: r.network,
    prompt: r.prompt,
    trajectories: r.trajectories,
    fired: Object.fromEntries((["any", ...CATEGORIES] as const).map((k) => [k, r[k]])) as RuleHitsRow["fired"],
  }));
}
