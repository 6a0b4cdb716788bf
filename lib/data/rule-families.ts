import "server-only";
// The commands a rule or category matched, grouped by shape: how the agents looked for the future.
import { type CommandFamily, commandFamilies, type MatchedCommand } from "@/lib/domain/command-families";
import { findHits, type PatternRule } from "./pattern-hits";
import { ranPastLimit, SCAN_TIMEOUT_MS } from "./rule-sql";
import { statement } from "./sql";

/** The most matched commands read (each cut to 300 characters): a family's count is exact below it. */
export const MAX_MATCHED = 20_000;

/** The rule named (or the category's enabled ones), in force, command rules, not stopped by their limit. */
const RULES_SQL = `SELECT l.id, l."on", l.pattern, l."ignoreCase" FROM rules_in_force() l
  WHERE l."on" = 'command' AND (l.name = $1 OR ($1::text IS NULL AND l.enabled AND l.category = $2))
    AND NOT EXISTS (SELECT FROM rule_scan f WHERE f."ruleId" = l.id AND f.failure IS NOT NULL)`;

/** The commands matched, by their keys (trajectory, message, call), with their conditions. */
const MATCHED_SQL = `
  SELECT c."trajectoryId", c.step, left(c.input, 300) AS command,
    b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt
  FROM unnest($1::int[], $2::int[], $3::int[]) AS h(t, a, b)
    JOIN tool_call c ON c."trajectoryId" = h.t AND c."messageSeq" = h.a AND c.seq = h.b
    JOIN trajectory t ON t.id = c."trajectoryId" JOIN benchmark b ON b.id = t."benchmarkId"
    JOIN agent_model m ON m.id = t."modelId"
  ORDER BY c."trajectoryId", c."messageSeq", c.seq`;

/** `stopped`: why no family is shown (the patterns ran past the scan's limit). */
export type Families = { families: CommandFamily[]; commands: number; cut: boolean; stopped?: string };

/** The command families the named rule or category matched, from kept hits; none past the time limit. */
export async function ruleFamilies(by: { rule?: string; category?: string }): Promise<Families> {
  const rules = await statement<PatternRule>(RULES_SQL, [by.rule ?? null, by.category ?? null]);
  const hit = await statement<{ id: number }>(
    `SELECT DISTINCT "trajectoryId" AS id FROM rule_match WHERE "ruleId" = ANY($1::int[]) ORDER BY 1`,
    [rules.map((r) => r.id)],
  );
  const hits = await findHits(
    rules,
    hit.map((h) => h.id),
    SCAN_TIMEOUT_MS,
  ).catch((e: unknown) => {
    if (!ranPastLimit(e)) throw e;
    return null;
  });
  if (!hits)
    return {
      families: [],
      commands: 0,
      cut: false,
      stopped: `the patterns ran past ${SCAN_TIMEOUT_MS / 1000} s over the study's commands`,
    };
  const seen = new Set<string>();
  const keys = hits
    .filter((h) => !seen.has(`${h.trajectoryId}:${h.a}:${h.b}`) && seen.add(`${h.trajectoryId}:${h.a}:${h.b}`))
    .sort((x, y) => x.trajectoryId - y.trajectoryId || x.a - y.a || x.b - y.b)
    .slice(0, MAX_MATCHED + 1);
  const rows = await statement<MatchedCommand & { trajectoryId: number }>(MATCHED_SQL, [
    keys.map((k) => k.trajectoryId),
    keys.map((k) => k.a),
    keys.map((k) => k.b),
  ]);
  const matched = rows.slice(0, MAX_MATCHED);
  return { families: commandFamilies(matched), commands: matched.length, cut: rows.length > MAX_MATCHED };
}
