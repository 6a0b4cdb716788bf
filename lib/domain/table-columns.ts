// What the result tables share: the condition's columns, counts, and how figures are written.
import { networkMark } from "./charts";
import { linked, type ModelCell, type ModelColumn, plain, text, valued } from "./figure-table";
import { formatCount, formatPercent, UNDEFINED_FIGURE } from "./format";
import { type ConditionResult, RATE_LABELS, type RateKey } from "./results";
import { latexEscape } from "./table-format";
import type { TrajectoryFilter } from "./trajectory-filter";

export const TABLE_NAMES = [
  "results",
  "changes",
  "network",
  "evidence",
  "rules",
  "categories",
  "judges",
  "unparseable",
] as const;
export type TableName = (typeof TABLE_NAMES)[number];
export const TABLE_TITLES: Record<TableName, string> = {
  results: "Result table",
  changes: "Vanilla → principled, paired",
  network: "Network on → off, paired",
  evidence: "Evidence from the task records",
  rules: "Rule hits by condition",
  categories: "By exploit category",
  judges: "Each judge beside the panel",
  unparseable: "Unparseable answers",
};

export const pct = (v: number | null) => formatPercent(v);
export const pp = (v: number | null) =>
  v === null ? UNDEFINED_FIGURE : `${v > 0 ? "+" : v < 0 ? "−" : "±"}${Math.abs(v).toFixed(1)} pp`;
export const count = formatCount;
const signed = (v: number) => `${v < 0 ? "−" : ""}${Math.abs(v).toFixed(1)}`;
export const range = (low: number | null, high: number | null) =>
  low === null || high === null ? "" : `${signed(low)} to ${signed(high)}`;
export const pValue = (p: number) => (p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`);
export const rateTex = (k: RateKey) => latexEscape(RATE_LABELS[k].replace(" %", ""));

type Row = ConditionResult["row"];
/** A row's condition: a paired change's group lacks the side it pairs (the prompt, or the network). */
export type Group = Pick<Row, "benchmark" | "model"> & { network?: boolean; prompt?: string };
const networkWords = (r: Group) => (r.network === undefined ? "" : `, network ${r.network ? "on" : "off"}`);
export const conditionWords = (r: Group) => `${r.model}${networkWords(r)}${r.prompt ? `, ${r.prompt}` : ""}`;
export const rowKey = (r: Group, more = "") =>
  `${r.benchmark}\u0000${r.model}\u0000${r.network}\u0000${r.prompt ?? ""}\u0000${more}`;

/** Benchmark (downloads only: a page shows one benchmark), model, and the network and prompt unless left out. */
export function conditionColumns(withPrompt = true, withNetwork = true): ModelColumn[] {
  return [
    { key: "benchmark", label: "Benchmark", onPage: false, fields: [{ key: "benchmark", tex: "Benchmark" }] },
    { key: "model", label: "Model", fields: [{ key: "model", tex: "Model" }] },
    ...(withNetwork ? [{ key: "net", label: "Net", fields: [{ key: "network", tex: "Net" }] }] : []),
    ...(withPrompt ? [{ key: "prompt", label: "Prompt", fields: [{ key: "prompt", tex: "Prompt" }] }] : []),
  ];
}
export const conditionCells = (r: Group): ModelCell[] => [
  plain(r.benchmark),
  plain(r.model),
  ...(r.network === undefined ? [] : [{ ...text(networkMark(r.network)), values: [r.network] }]),
  ...(r.prompt === undefined ? [] : [plain(r.prompt)]),
];
export const counted = (key: string, label: string, tex: string): ModelColumn => ({
  key,
  label,
  numeric: true,
  fields: [{ key, tex, digits: 0 }],
});

/** A count that opens the `n` trajectories of `filter`; the downloads carry `n`. */
export const countCell = (n: number, filter: TrajectoryFilter, label?: string): ModelCell =>
  valued(linked(count(n), n, filter, n, label), n);

/** A rate of `part` trajectories, which `filter` opens; the downloads carry the part, then the rate. */
export const rateCell = (rate: number | null, part: number, filter: TrajectoryFilter, label?: string): ModelCell =>
  valued(linked(pct(rate), rate, filter, part, label), part, rate);
