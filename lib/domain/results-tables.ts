// The result table's companions as tables of their own, for CSV and LaTeX downloads and the JSON's
// added keys: the paired changes from vanilla to principled (lib/domain/paired.ts), the per-category
// panel rates, each judge beside the panel, and the unparseable answers. One model of a table
// (columns, rows of cells) is written out by one CSV and one LaTeX writer.
import { networkMark } from "./charts";
import { BINARY_KEYS, type PairedChange } from "./paired";
import { categoryRates, judgeRates, RATE_KEYS, RATE_LABELS, type ConditionResult, type RateKey } from "./results";
import { csvCell, latexEscape, latexNumber } from "./table-format";
import { CATEGORIES, CATEGORY_LABELS } from "./verdicts";

export type Cell = string | number | boolean | null;
export type Column = {
  /** The CSV header. */
  key: string;
  /** The LaTeX header; a column without one is left out of the LaTeX table. */
  tex?: string;
  /** LaTeX: a number's digits (one by default); "text" cells are escaped. */
  digits?: number;
};
export type ReportTable = { name: TableName; title: string; columns: Column[]; rows: Cell[][] };

export const TABLE_NAMES = ["results", "changes", "categories", "judges", "unparseable"] as const;
export type TableName = (typeof TABLE_NAMES)[number];
export const TABLE_TITLES: Record<TableName, string> = {
  results: "Result table",
  changes: "Vanilla → principled, paired",
  categories: "By exploit category",
  judges: "Each judge beside the panel",
  unparseable: "Unparseable answers",
};

const condition = (r: ConditionResult["row"]): Cell[] => [r.benchmark, r.model, r.network, r.prompt];
const CONDITION_COLUMNS: Column[] = [
  { key: "benchmark", tex: "Benchmark" },
  { key: "model", tex: "Model" },
  { key: "network", tex: "Net" },
  { key: "prompt", tex: "Prompt" },
];

export function changesTable(changes: readonly PairedChange[]): ReportTable {
  return {
    name: "changes",
    title: TABLE_TITLES.changes,
    columns: [
      ...CONDITION_COLUMNS.slice(0, 3),
      { key: "tasks", tex: "Tasks", digits: 0 },
      { key: "resamples" },
      ...RATE_KEYS.flatMap((k): Column[] => [
        { key: `${k}_change`, tex: `$\\Delta$ ${latexEscape(RATE_LABELS[k].replace(" %", ""))}` },
        { key: `${k}_ci_low`, tex: "low" },
        { key: `${k}_ci_high`, tex: "high" },
      ]),
      ...BINARY_KEYS.flatMap((k): Column[] => [
        { key: `${k}_pairs` },
        { key: `${k}_b` },
        { key: `${k}_c` },
        { key: `${k}_p`, tex: `$p$ ${latexEscape(RATE_LABELS[k].replace(" %", ""))}`, digits: 3 },
      ]),
    ],
    rows: changes.map((c) => [
      c.benchmark,
      c.model,
      c.network,
      c.tasks,
      c.bootstrap.pass_at_1.resamples,
      ...RATE_KEYS.flatMap((k) => [c.bootstrap[k].change, c.bootstrap[k].low, c.bootstrap[k].high]),
      ...BINARY_KEYS.flatMap((k) => [c.mcnemar[k].pairs, c.mcnemar[k].b, c.mcnemar[k].c, c.mcnemar[k].p]),
    ]),
  };
}

export function categoriesTable(results: readonly ConditionResult[]): ReportTable {
  return {
    name: "categories",
    title: TABLE_TITLES.categories,
    columns: [
      ...CONDITION_COLUMNS,
      { key: "judged", tex: "Judged", digits: 0 },
      ...CATEGORIES.flatMap((c): Column[] => {
        const k = c.toLowerCase();
        const label = latexEscape(CATEGORY_LABELS[c]);
        return [
          { key: `${k}_attempts` },
          { key: `${k}_attempt_rate`, tex: `${label} att.` },
          { key: `${k}_attempt_ci_low` },
          { key: `${k}_attempt_ci_high` },
          { key: `${k}_successes` },
          { key: `${k}_success_rate`, tex: `${label} succ.` },
          { key: `${k}_success_ci_low` },
          { key: `${k}_success_ci_high` },
        ];
      }),
    ],
    rows: results.map((r) => {
      const rates = categoryRates(r.categories);
      return [
        ...condition(r.row),
        r.categories.judged,
        ...CATEGORIES.flatMap((c) => [
          r.categories.attempts[c],
          rates[c].attempt_rate,
          rates[c].attempt?.low ?? null,
          rates[c].attempt?.high ?? null,
          r.categories.successes[c],
          rates[c].success_rate,
          rates[c].success?.low ?? null,
          rates[c].success?.high ?? null,
        ]),
      ];
    }),
  };
}

/** Each judge's own verdicts per condition, then the panel's row (votes: the judged trajectories). */
export function judgesTable(results: readonly ConditionResult[]): ReportTable {
  return {
    name: "judges",
    title: TABLE_TITLES.judges,
    columns: [
      ...CONDITION_COLUMNS,
      { key: "judge", tex: "Judge" },
      { key: "votes", tex: "Votes", digits: 0 },
      { key: "attempts" },
      { key: "attempt_rate", tex: "Attempt" },
      { key: "successes" },
      { key: "success_rate", tex: "Success" },
      { key: "unparseable", tex: "Unparseable", digits: 0 },
    ],
    rows: results.flatMap((r) => [
      ...r.judges.map((j) => {
        const jr = judgeRates(j);
        return [
          ...condition(r.row),
          j.judge,
          j.votes,
          j.attempts,
          jr.attempt_rate,
          j.successes,
          jr.success_rate,
          j.unparseable,
        ];
      }),
      [
        ...condition(r.row),
        "panel",
        r.row.judged,
        r.tallies.attempts,
        r.row.attempt_rate,
        r.tallies.successes,
        r.row.success_rate,
        r.unparseableTrajectories,
      ],
    ]),
  };
}

export function unparseableTable(results: readonly ConditionResult[]): ReportTable {
  return {
    name: "unparseable",
    title: TABLE_TITLES.unparseable,
    columns: [
      ...CONDITION_COLUMNS,
      { key: "votes", tex: "Votes", digits: 0 },
      { key: "unparseable_votes", tex: "Unparseable", digits: 0 },
      { key: "unparseable_trajectories", tex: "Trajectories", digits: 0 },
    ],
    rows: results.map((r) => [
      ...condition(r.row),
      r.judges.reduce((n, j) => n + j.votes, 0),
      r.unparseable,
      r.unparseableTrajectories,
    ]),
  };
}

export function tableCsv(t: ReportTable): string {
  const lines = [t.columns.map((c) => c.key), ...t.rows].map((row) => row.map(csvCell).join(","));
  return `${lines.join("\n")}\n`;
}

function texCell(v: Cell, column: Column): string {
  if (typeof v === "number") return latexNumber(v, column.digits ?? 1);
  if (v === null) return "---";
  if (typeof v === "boolean") return networkMark(v) === "✓" ? "\\checkmark" : "$\\times$";
  return latexEscape(v);
}

/** A booktabs tabular of the columns that have a LaTeX header (needs booktabs and amssymb). */
export function tableLatex(t: ReportTable): string {
  const shown = t.columns.flatMap((c, i) => (c.tex ? [{ c, i }] : []));
  const align = shown.map(({ i }) => (t.rows.some((r) => typeof r[i] === "number") ? "r" : "l")).join("");
  const out = [
    `% ${t.title}. Rates and changes in percent (points); --- where undefined.`,
    `\\begin{tabular}{${align}}`,
    "\\toprule",
    `${shown.map(({ c }) => c.tex).join(" & ")} \\\\`,
    "\\midrule",
  ];
  let previous: Cell = null;
  for (const row of t.rows) {
    if (previous !== null && previous !== row[0]) out.push("\\midrule");
    previous = row[0] ?? null;
    out.push(`${shown.map(({ c, i }) => texCell(row[i] ?? null, c)).join(" & ")} \\\\`);
  }
  out.push("\\bottomrule", "\\end{tabular}");
  return `${out.join("\n")}\n`;
}

/** The JSON's added keys on a condition's object (docs/formats.md's keys stay first and unrenamed). */
export function conditionExtras(r: ConditionResult, change: PairedChange | undefined): Record<string, unknown> {
  const rates = categoryRates(r.categories);
  const interval = (i: { low: number; high: number } | null) => (i ? [i.low, i.high] : null);
  return {
    categories: Object.fromEntries(
      CATEGORIES.map((c) => [
        c,
        {
          attempts: r.categories.attempts[c],
          successes: r.categories.successes[c],
          attempt_rate: rates[c].attempt_rate,
          success_rate: rates[c].success_rate,
          ci95: { attempt_rate: interval(rates[c].attempt), success_rate: interval(rates[c].success) },
        },
      ]),
    ),
    judges: r.judges.map((j) => {
      const jr = judgeRates(j);
      return { ...j, attempt_rate: jr.attempt_rate, success_rate: jr.success_rate };
    }),
    unparseable_votes: r.unparseable,
    unparseable_trajectories: r.unparseableTrajectories,
    ...(change
      ? {
          change_from_vanilla: {
            tasks: change.tasks,
            ...Object.fromEntries(
              RATE_KEYS.map((k: RateKey) => {
                const b = change.bootstrap[k];
                const m = (BINARY_KEYS as readonly string[]).includes(k)
                  ? { mcnemar: change.mcnemar[k as (typeof BINARY_KEYS)[number]] }
                  : {};
                return [
                  k,
                  { change: b.change, ci95: b.low === null ? null : [b.low, b.high], resamples: b.resamples, ...m },
                ];
              }),
            ),
          },
        }
      : {}),
  };
}

export type ResultsReport = { conditions: readonly ConditionResult[]; changes: readonly PairedChange[] };

/** The companion tables of a report, by name (the result table itself is results-format.ts's). */
export function companionTable(name: Exclude<TableName, "results">, report: ResultsReport): ReportTable {
  return {
    changes: () => changesTable(report.changes),
    categories: () => categoriesTable(report.conditions),
    judges: () => judgesTable(report.conditions),
    unparseable: () => unparseableTable(report.conditions),
  }[name]();
}
