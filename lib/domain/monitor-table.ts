// The monitors as one table model: the page, frozen reports and `agreement --table monitors` render it.
import { networkWords } from "./charts";
import { type ModelColumn, type ModelRow, plain, type TableModel, valued } from "./figure-table";
import { formatCount, formatPercent, UNDEFINED_FIGURE } from "./format";
import type { MonitorConditionRow, MonitorReport, MonitorRow } from "./monitor-report";

const fraction = (v: number | null) => (v === null ? UNDEFINED_FIGURE : v.toFixed(2));
const share = (v: number | null) => formatPercent(v === null ? null : v * 100);

const COLUMNS: ModelColumn[] = [
  { key: "monitor", label: "Monitor", fields: [{ key: "monitor", tex: "Monitor" }] },
  { key: "kind", label: "Kind", wideOnly: true, fields: [{ key: "kind", tex: "Kind" }] },
  {
    key: "prompt_version",
    label: "Prompt",
    wideOnly: true,
    fields: [{ key: "prompt_version", tex: "Prompt", digits: 0 }],
  },
  { key: "category", label: "Category", fields: [{ key: "category", tex: "Category" }] },
  { key: "n", label: "n", numeric: true, fields: [{ key: "n", tex: "$n$", digits: 0 }] },
  {
    key: "positives",
    label: "Positives",
    numeric: true,
    wideOnly: true,
    fields: [{ key: "positives", tex: "Pos.", digits: 0 }],
  },
  {
    key: "auroc",
    label: "AUROC (95%)",
    numeric: true,
    fields: [{ key: "auroc", tex: "AUROC", digits: 2 }, { key: "auroc_ci_low" }, { key: "auroc_ci_high" }],
  },
  {
    key: "tpr_at_5_fpr",
    label: "Caught at 5% false alarms",
    numeric: true,
    fields: [{ key: "tpr_at_5_fpr", tex: "TPR@5\\%FPR", digits: 2 }],
  },
  {
    key: "balanced_accuracy",
    label: "Balanced accuracy",
    numeric: true,
    fields: [{ key: "balanced_accuracy", tex: "Bal. acc.", digits: 2 }],
  },
];

const versionText = (r: MonitorRow) =>
  r.kind !== "judge" ? "" : r.prompt_version === null ? "imported" : `v${r.prompt_version}`;

/** The monitor's name as pages and charts show it: a judge with its version, a panel saying so. */
export const monitorText = (r: MonitorRow) =>
  r.kind === "judge"
    ? `${r.monitor} (${versionText(r)})`
    : r.kind === "panel"
      ? `${r.monitor} (panel${r.in_force ? ", in force" : ""})`
      : r.monitor;

function row(r: MonitorRow, extra = ""): ModelRow {
  return {
    key: `${r.kind}\u0000${r.monitor}\u0000${r.prompt_version}\u0000${r.category}${extra}`,
    cells: [
      plain(r.monitor, monitorText(r)),
      plain(r.kind),
      plain(r.prompt_version, versionText(r)),
      plain(r.category, r.category_name),
      plain(r.n, formatCount(r.n)),
      plain(r.positives, formatCount(r.positives)),
      valued(
        {
          text: fraction(r.auroc),
          sort: r.auroc,
          ...(r.auroc_ci ? { sub: `${r.auroc_ci[0].toFixed(2)} to ${r.auroc_ci[1].toFixed(2)}` } : {}),
        },
        r.auroc,
        r.auroc_ci?.[0] ?? null,
        r.auroc_ci?.[1] ?? null,
      ),
      valued({ text: share(r.tpr_at_5_fpr), sort: r.tpr_at_5_fpr }, r.tpr_at_5_fpr),
      valued({ text: share(r.balanced_accuracy), sort: r.balanced_accuracy }, r.balanced_accuracy),
    ],
  };
}

/** Every monitor × category (category "ALL" overall): the rows of `agreement --table monitors`. */
export function monitorModel(
  rows: readonly MonitorRow[],
  name = "monitors",
  title = "Monitors against the gold labels",
): TableModel {
  return { name, title, columns: COLUMNS, rows: rows.map((r) => row(r)) };
}

export function monitorConditionModel(rows: readonly MonitorConditionRow[]): TableModel {
  const condition: ModelColumn = {
    key: "condition",
    label: "Condition",
    fields: [
      { key: "network", tex: "Network" },
      { key: "prompt", tex: "Prompt" },
    ],
  };
  return {
    name: "monitors-conditions",
    title: "Monitors against the gold labels by condition",
    columns: [condition, ...COLUMNS],
    rows: rows.map((r) => {
      const base = row(r, `\u0000${r.network}\u0000${r.prompt}`);
      const shown = `network ${networkWords(r.network)}, ${r.prompt}`;
      return { ...base, cells: [valued({ text: shown, sort: shown }, r.network, r.prompt), ...base.cells] };
    }),
  };
}

export function monitorTables(m: MonitorReport): Array<{ id: string; heading: string; model: TableModel }> {
  const models = [
    {
      id: "monitors-judges",
      heading: "Judges and panels as monitors",
      model: monitorModel(
        m.rows.filter((r) => r.kind !== "rule"),
        "monitors",
        "Judges and panels as monitors",
      ),
    },
    {
      id: "monitors-rules",
      heading: "Rules as monitors",
      model: monitorModel(
        m.rows.filter((r) => r.kind === "rule"),
        "monitors",
        "Rules as monitors",
      ),
    },
    { id: "monitors-conditions", heading: "Monitors by condition", model: monitorConditionModel(m.by_condition) },
  ];
  return models.filter((t) => t.model.rows.length);
}

/** A monitor's AUROC (interval) and catch at 5% false alarms in one line; "—" where not measured. */
export function monitorInBrief(r: MonitorRow | undefined): string {
  if (!r || r.auroc === null) return UNDEFINED_FIGURE;
  const ci = r.auroc_ci ? ` (${r.auroc_ci[0].toFixed(2)}–${r.auroc_ci[1].toFixed(2)})` : "";
  return `${fraction(r.auroc)}${ci} · ${share(r.tpr_at_5_fpr)}`;
}
