import "server-only";
// Every rule in force measured as a rule tried is (lib/data/rule-test.ts), from its kept hits.
import { keptHitsStudy, reportOf } from "@/lib/data/rule-test";
import { listRules } from "@/lib/data/rules";
import { transaction } from "@/lib/data/sql";
import type { RuleTestReport } from "@/lib/domain/rule-test";
import type { Rule } from "@/lib/domain/rules";
import { ruleHitsCaughtUp } from "@/lib/work/rule-scan/scan";

export type RuleFigures = { rule: Rule; report: RuleTestReport };

/** Each rule in force (enabled or not, in the order marks are listed) with its figures over the study. */
export async function ruleFigures(): Promise<RuleFigures[]> {
  await ruleHitsCaughtUp();
  const { rules, study } = await transaction(async (sql) => ({
    rules: await listRules(sql),
    study: await keptHitsStudy(sql),
  }));
  return rules.map((rule) => ({ rule, report: reportOf(study, rule.id, rule.category) }));
}
