import "server-only";
// Every rule in force measured as a rule being tried is (lib/data/rule-test.ts): per condition the
// trajectories it fires on and the steps it hits, the four cells against the panel and the gold labels
// with precision, recall and κ. One scan of the study for all of them, under the scan's time limit.
import type { RuleTestReport } from "@/lib/domain/rule-test";
import type { Rule } from "@/lib/domain/rules";
import { reportOf, studyTrajectories } from "./rule-test";
import { boundScan, hitsSql, listRules } from "./rules";
import { transaction } from "./sql";

export type RuleFigures = { rule: Rule; report: RuleTestReport };

/** Each rule in force (enabled or not, in the order marks are listed) with its figures over the study. */
export async function ruleFigures(): Promise<RuleFigures[]> {
  const { rules, study, hits } = await transaction(async (sql) => {
    const rules = await listRules(sql);
    const study = await studyTrajectories(sql, null);
    await boundScan(sql);
    const hits = await sql.query<{ name: string; id: number; steps: number }>(
      `SELECT name, id, count(DISTINCT step)::int AS steps FROM (${hitsSql("true")}) h GROUP BY 1, 2`,
    );
    return { rules, study, hits };
  });
  const steps = new Map<string, Map<number, number>>(rules.map((r) => [r.name, new Map()]));
  for (const h of hits) steps.get(h.name)?.set(h.id, h.steps);
  return rules.map((rule) => ({ rule, report: reportOf(study, rule.category, steps.get(rule.name)!) }));
}
