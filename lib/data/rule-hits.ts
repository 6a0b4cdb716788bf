import "server-only";
// Per condition, the trajectories some enabled rule in force fires on, from the kept hits (decision 40).
import type { RuleHitsRow } from "@/lib/domain/rule-hits-table";
import { listCategories } from "./categories";
import { transaction } from "./sql";

// Each fired trajectory once with its categories, hash-joined (correlated EXISTS took 132 s at 150,000).
const ruleHitsSql = (categories: number) => `
  WITH h AS (SELECT m."trajectoryId" AS id, array_agg(DISTINCT l.category) AS cats
    FROM rule_match m JOIN rules_in_force() l ON l.id = m."ruleId" WHERE l.enabled GROUP BY 1)
  SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt, count(*)::int AS trajectories,
    count(h.id)::int AS any${Array.from(
      { length: categories },
      (_, i) => `,\n    count(*) FILTER (WHERE $${i + 1}::text = ANY(h.cats))::int AS c${i}`,
    ).join("")}
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
    LEFT JOIN h ON h.id = t.id
  GROUP BY 1, 2, 3, 4`;

/** Read as the hits stand, a count for each category in force: the caller waits for the scan first. */
export async function getRuleHits(): Promise<RuleHitsRow[]> {
  return transaction(async (sql) => {
    const categories = await listCategories(sql);
    const keys = categories.map((c) => c.key);
    const names = Object.fromEntries(categories.map((c) => [c.key, c.name]));
    const rows = await sql.query<Omit<RuleHitsRow, "fired"> & Record<string, number>>(ruleHitsSql(keys.length), keys);
    return rows.map((r) => ({
      benchmark: r.benchmark,
      model: r.model,
      network: r.network,
      prompt: r.prompt,
      trajectories: r.trajectories,
      fired: Object.fromEntries([["any", r.any!], ...keys.map((k, i) => [k, r[`c${i}`]!])]),
      names,
    }));
  });
}
