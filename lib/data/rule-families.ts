import "server-only";
// The commands a rule (or every enabled rule of a category) matched, grouped by shape
// (lib/domain/command-families.ts): how the agents looked for the future. Command rules only.
import { type CommandFamily, commandFamilies, type MatchedCommand } from "@/lib/domain/command-families";
import type { Category } from "@/lib/domain/verdicts";
import { boundScan, RULE_TEXT, RULES_IN_FORCE, ranPastLimit, ruleMatches, SCAN_TIMEOUT_MS } from "./rule-sql";
import { transaction } from "./sql";

/** The most matched commands read (each cut to 300 characters): a family's count is exact below it. */
export const MAX_MATCHED = 20_000;

const MATCHED_SQL = `
  SELECT DISTINCT ON (c."trajectoryId", c."messageSeq", c.seq) c."trajectoryId", c.step, left(c.input, 300) AS command,
    b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt
  FROM tool_call c JOIN ${RULES_IN_FORCE} l ON l."on" = 'command'
      AND (l.name = $1 OR ($1::text IS NULL AND l.enabled AND l.category = $2))
      AND NOT EXISTS (SELECT FROM rule_scan f WHERE f."ruleId" = l.id AND f.failure IS NOT NULL)
      AND ${ruleMatches("l", RULE_TEXT.command("c"))}
    JOIN trajectory t ON t.id = c."trajectoryId" JOIN benchmark b ON b.id = t."benchmarkId"
    JOIN agent_model m ON m.id = t."modelId"
  ORDER BY c."trajectoryId", c."messageSeq", c.seq LIMIT ${MAX_MATCHED + 1}`;

/** `stopped`: why no family is shown (the patterns ran past the scan's limit). */
export type Families = { families: CommandFamily[]; commands: number; cut: boolean; stopped?: string };

/**
 * The families of the commands the rule named matched (or, without one, the category's enabled rules),
 * but those of a rule the scan stopped; past the scan's time limit, none, and why.
 */
export async function ruleFamilies(by: { rule?: string; category?: Category }): Promise<Families> {
  const rows = await transaction(async (sql) => {
    await boundScan(sql);
    return sql.query<MatchedCommand & { trajectoryId: number }>(MATCHED_SQL, [by.rule ?? null, by.category ?? null]);
  }).catch((e: unknown) => {
    if (!ranPastLimit(e)) throw e;
    return null;
  });
  if (!rows)
    return {
      families: [],
      commands: 0,
      cut: false,
      stopped: `the patterns ran past ${SCAN_TIMEOUT_MS / 1000} s over the study's commands`,
    };
  const matched = rows.slice(0, MAX_MATCHED);
  return { families: commandFamilies(matched), commands: matched.length, cut: rows.length > MAX_MATCHED };
}
