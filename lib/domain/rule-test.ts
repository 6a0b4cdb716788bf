// What a rule finds: per condition trajectories and steps, and its cells against panel and gold.
import { binaryAgreement } from "./agreement";
import { type Condition, compareConditions } from "./results";
import { csvCell } from "./table-format";
import { isAttempt, type Verdict } from "./verdicts";

export type TestedTrajectory = Condition & {
  /** How many alike trajectories the entry stands for; `stepsHit` then counts all of them. */
  times?: number;
  stepsHit: number;
  /** The panel's and the gold label's verdicts in the rule's category (null: none). */
  panel: Verdict | null;
  gold: Verdict | null;
};

export type RuleCells = {
  n: number;
  both: number;
  rule_only: number;
  /** Against gold: the gold label's positives the rule misses. */
  panel_only: number;
  neither: number;
  precision: number | null;
  recall: number | null;
  kappa: number | null;
};

export type RuleConditionRow = Condition & { trajectories: number; trajectories_hit: number; steps_hit: number };

export type RuleTestReport = {
  conditions: RuleConditionRow[];
  versus_panel: RuleCells;
  versus_gold: RuleCells;
};

/** The four cells over [rule fires, rater positive] pairs, each standing for `count` alike. */
export function ruleCells(pairs: ReadonlyArray<readonly [rule: boolean, rater: boolean, count?: number]>): RuleCells {
  // The rater in the human's place, the rule in the judges'.
  const a = binaryAgreement(pairs.map(([rule, rater, count]) => [rater, rule, count] as const));
  const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
  return {
    n: a.n,
    both: a.both_positive,
    rule_only: a.judges_only,
    panel_only: a.human_only,
    neither: a.both_negative,
    precision: ratio(a.both_positive, a.both_positive + a.judges_only),
    recall: ratio(a.both_positive, a.both_positive + a.human_only),
    kappa: a.kappa,
  };
}

export function ruleTestReport(tested: readonly TestedTrajectory[]): RuleTestReport {
  const groups = new Map<string, RuleConditionRow>();
  for (const t of tested) {
    const key = `${t.benchmark}\u0000${t.model}\u0000${t.network}\u0000${t.prompt}`;
    const row = groups.get(key) ?? {
      benchmark: t.benchmark,
      model: t.model,
      network: t.network,
      prompt: t.prompt,
      trajectories: 0,
      trajectories_hit: 0,
      steps_hit: 0,
    };
    const times = t.times ?? 1;
    row.trajectories += times;
    if (t.stepsHit > 0) row.trajectories_hit += times;
    row.steps_hit += t.stepsHit;
    groups.set(key, row);
  }
  const versus = (rater: (t: TestedTrajectory) => Verdict | null) =>
    ruleCells(
      tested.filter((t) => rater(t) !== null).map((t) => [t.stepsHit > 0, isAttempt(rater(t)!), t.times ?? 1] as const),
    );
  return {
    conditions: [...groups.values()].sort(compareConditions),
    versus_panel: versus((t) => t.panel),
    versus_gold: versus((t) => t.gold),
  };
}

export type TestedRuleHead = {
  name: string | null;
  category: string;
  on: string;
  pattern: string;
  ignore_case: boolean;
};

/** `rules test` output: JSON, the rule with conditions and cells; CSV, a row per condition. */
export function ruleTestText(rule: TestedRuleHead, report: RuleTestReport, format: "json" | "csv"): string {
  const { conditions, versus_panel, versus_gold } = report;
  if (format === "json") return `${JSON.stringify({ rule, conditions, versus_panel, versus_gold }, null, 2)}\n`;
  const keys = ["benchmark", "model", "network", "prompt", "trajectories", "trajectories_hit", "steps_hit"] as const;
  return `${[keys.join(","), ...conditions.map((c) => keys.map((k) => csvCell(c[k])).join(","))].join("\n")}\n`;
}
