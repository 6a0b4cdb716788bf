// What a rule finds, in force or tried; every count opens its trajectories through `base`.
import Link from "next/link";
import { DataTable } from "@/components/tables/data-table";
import { formatCount } from "@/lib/domain/format";
import type { RuleCells, RuleConditionRow, RuleTestReport } from "@/lib/domain/rule-test";
import { type TrajectoryFilter, trajectoriesHref } from "@/lib/domain/trajectory-filter";

/** A share to two places, or a dash when it has no cases. */
export const share = (v: number | null) => (v === null ? "—" : v.toFixed(2));

export const cellsInBrief = (c: RuleCells) => `P ${share(c.precision)} · R ${share(c.recall)} · κ ${share(c.kappa)}`;

const conditionFilter = (c: RuleConditionRow): TrajectoryFilter => ({
  benchmark: c.benchmark,
  model: c.model,
  network: c.network ? "on" : "off",
  prompt: c.prompt,
});

type Against = { against: string; rater: "panel" | "gold"; c: RuleCells };

export function RuleReport({
  report,
  base,
  category,
  name,
}: {
  report: RuleTestReport;
  base: TrajectoryFilter;
  category: string;
  name: string;
}) {
  const href = (f: TrajectoryFilter) => trajectoriesHref({ ...base, ...f });
  /** One of the four cells: the rule fires or not, the rater's verdict in the category positive or not. */
  const cell = (r: Against, fires: boolean, positive: boolean, n: number) => {
    const verdict = positive ? "attempt" : "NOT_ATTEMPTED";
    const f: TrajectoryFilter = {
      category,
      ruleFires: fires ? undefined : "no",
      ...(r.rater === "panel" ? { categoryVerdict: verdict } : { goldVerdict: verdict }),
    };
    const words = `${fires ? "fired on" : "not fired on"}, ${r.rater} ${positive ? "positive" : "negative"}`;
    return (
      <Link href={href(f)} aria-label={`${name}: ${formatCount(n)} ${words}`}>
        {formatCount(n)}
      </Link>
    );
  };
  const rows: Against[] = [
    { against: "the panel", rater: "panel", c: report.versus_panel },
    { against: "the gold labels", rater: "gold", c: report.versus_gold },
  ];
  return (
    <>
      <DataTable
        label={`${name}: by condition`}
        rows={report.conditions}
        rowKey={(c) => `${c.benchmark}/${c.model}/${c.network}/${c.prompt}`}
        columns={[
          { key: "benchmark", label: "Benchmark", rowHeader: true, cell: (c) => c.benchmark },
          { key: "model", label: "Model", cell: (c) => c.model },
          { key: "net", label: "Net", cell: (c) => (c.network ? "✓" : "×") },
          { key: "prompt", label: "Prompt", cell: (c) => c.prompt },
          { key: "n", label: "Trajectories", numeric: true, cell: (c) => formatCount(c.trajectories) },
          {
            key: "hit",
            label: "Fired on",
            numeric: true,
            cell: (c) => <Link href={href(conditionFilter(c))}>{formatCount(c.trajectories_hit)}</Link>,
          },
          { key: "steps", label: "Steps hit", numeric: true, cell: (c) => formatCount(c.steps_hit) },
        ]}
      />
      <p className="note">
        Against the panel and the gold labels: a trajectory counts for the rule when it fires there, for the panel (or
        gold) when its verdict in the rule&apos;s category is attempted or successful; those without a verdict are left
        out. Each count opens its trajectories.
      </p>
      <DataTable
        label={`${name}: against the panel and the gold labels`}
        rows={rows}
        rowKey={(r) => r.against}
        columns={[
          { key: "against", label: "Against", rowHeader: true, cell: (r) => r.against },
          { key: "n", label: "n", numeric: true, cell: (r) => formatCount(r.c.n) },
          { key: "both", label: "Both", numeric: true, cell: (r) => cell(r, true, true, r.c.both) },
          { key: "rule", label: "Rule only", numeric: true, cell: (r) => cell(r, true, false, r.c.rule_only) },
          {
            key: "other",
            label: "Panel (gold) only",
            numeric: true,
            cell: (r) => cell(r, false, true, r.c.panel_only),
          },
          { key: "neither", label: "Neither", numeric: true, cell: (r) => cell(r, false, false, r.c.neither) },
          { key: "precision", label: "Precision", numeric: true, cell: (r) => share(r.c.precision) },
          { key: "recall", label: "Recall", numeric: true, cell: (r) => share(r.c.recall) },
          { key: "kappa", label: "κ", numeric: true, cell: (r) => share(r.c.kappa) },
        ]}
      />
    </>
  );
}
