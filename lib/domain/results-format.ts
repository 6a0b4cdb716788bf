// The result table as CSV, JSON and LaTeX (booktabs). JSON follows docs/formats.md: one object per
// condition with its figures unrounded (null where undefined), plus its 95% intervals. CSV carries
// the same numbers unrounded; LaTeX rounds to one decimal for the paper.
import { RATE_KEYS, RATE_LABELS, type ResultRow } from "./results";
import { networkMark } from "./charts";
import { csvCell, latexEscape, latexNumber } from "./table-format";
import {
  companionTable,
  conditionExtras,
  tableCsv,
  tableLatex,
  TABLE_NAMES,
  type ResultsReport,
  type TableName,
} from "./results-tables";

const COUNT_KEYS = ["trajectories", "tasks", "judged"] as const;

export function resultsJson(rows: readonly ResultRow[]): Array<Record<string, unknown>> {
  return rows.map((r) => ({
    benchmark: r.benchmark,
    model: r.model,
    network: r.network,
    prompt: r.prompt,
    trajectories: r.trajectories,
    tasks: r.tasks,
    judged: r.judged,
    pass_at_1: r.pass_at_1,
    pass_at_3: r.pass_at_3,
    attempt_rate: r.attempt_rate,
    success_rate: r.success_rate,
    resolved_exploit_rate: r.resolved_exploit_rate,
    ci95: Object.fromEntries(
      RATE_KEYS.map((k) => [k, r.intervals[k] ? [r.intervals[k]!.low, r.intervals[k]!.high] : null]),
    ),
  }));
}

export function resultsCsv(rows: readonly ResultRow[]): string {
  const header = [
    "benchmark",
    "model",
    "network",
    "prompt",
    ...COUNT_KEYS,
    ...RATE_KEYS.flatMap((k) => [k, `${k}_ci_low`, `${k}_ci_high`]),
  ];
  const lines = rows.map((r) =>
    [
      r.benchmark,
      r.model,
      r.network,
      r.prompt,
      ...COUNT_KEYS.map((k) => r[k]),
      ...RATE_KEYS.flatMap((k) => [r[k], r.intervals[k]?.low ?? null, r.intervals[k]?.high ?? null]),
    ]
      .map(csvCell)
      .join(","),
  );
  return `${[header.join(","), ...lines].join("\n")}\n`;
}

/** A booktabs table (needs \usepackage{booktabs} and, for ✓, amssymb's \checkmark). */
export function resultsLatex(rows: readonly ResultRow[]): string {
  const out = [
    "% Shortcut Audit result table. Rates in percent; --- where undefined (empty denominator).",
    "\\begin{tabular}{llllrrrrrrrr}",
    "\\toprule",
    `Benchmark & Model & Net & Prompt & Traj. & Tasks & Judged & ` +
      `${RATE_KEYS.map((k) => latexEscape(RATE_LABELS[k].replace(" %", ""))).join(" & ")} \\\\`,
    "\\midrule",
  ];
  let previous = "";
  for (const r of rows) {
    if (previous && previous !== r.benchmark) out.push("\\midrule");
    previous = r.benchmark;
    const net = networkMark(r.network) === "✓" ? "\\checkmark" : "$\\times$";
    out.push(
      `${latexEscape(r.benchmark)} & ${latexEscape(r.model)} & ${net} & ${r.prompt} & ${r.trajectories} & ` +
        `${r.tasks} & ${r.judged} & ${RATE_KEYS.map((k) => latexNumber(r[k])).join(" & ")} \\\\`,
    );
  }
  out.push("\\bottomrule", "\\end{tabular}");
  return `${out.join("\n")}\n`;
}

/** The JSON download: docs/formats.md's objects, each with its breakdowns and, if principled, its paired change. */
export function resultsReportJson(report: ResultsReport): Array<Record<string, unknown>> {
  const changes = new Map(report.changes.map((c) => [`${c.benchmark}\u0000${c.model}\u0000${c.network}`, c]));
  return resultsJson(report.conditions.map((c) => c.row)).map((o, i) => {
    const c = report.conditions[i]!;
    const change =
      c.row.prompt === "principled"
        ? changes.get(`${c.row.benchmark}\u0000${c.row.model}\u0000${c.row.network}`)
        : undefined;
    return { ...o, ...conditionExtras(c, change) };
  });
}

/** One table (or "all", one after another) as CSV or LaTeX. */
export function resultsTable(report: ResultsReport, format: "csv" | "latex", table: TableName | "all"): string {
  const rows = report.conditions.map((c) => c.row);
  const one = (name: TableName) =>
    name === "results"
      ? format === "csv"
        ? resultsCsv(rows)
        : resultsLatex(rows)
      : (format === "csv" ? tableCsv : tableLatex)(companionTable(name, report));
  if (table !== "all") return one(table);
  return TABLE_NAMES.map((name) => (format === "csv" ? `# ${name}\n${one(name)}` : one(name))).join("\n");
}
