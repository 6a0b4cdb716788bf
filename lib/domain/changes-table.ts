// Vanilla → principled as one table model: bootstrap intervals, McNemar's pairs and p.
import {
  type Field,
  type FigureCell,
  linked,
  type ModelCell,
  type ModelColumn,
  type ModelRow,
  type TableModel,
  valued,
} from "./figure-table";
import { type BinaryKey, isBinary, type PairedChange } from "./paired";
import { RATE_KEYS, RATE_LABELS, type RateKey } from "./results";
import {
  conditionCells,
  conditionColumns,
  conditionWords,
  count,
  pp,
  pValue,
  range,
  rateTex,
  rowKey,
  TABLE_TITLES,
} from "./table-columns";
import { type TrajectoryFilter, trajectoriesHref } from "./trajectory-filter";

/** What a binary question's "yes" is, as list filters. */
const YES: Record<BinaryKey, TrajectoryFilter> = {
  attempt_rate: { panel: "attempt" },
  success_rate: { panel: "SUCCESSFUL" },
  resolved_exploit_rate: { panel: "SUCCESSFUL", resolved: "yes" },
};
const PAIR: Record<BinaryKey, TrajectoryFilter["pair"]> = {
  attempt_rate: "attempt",
  success_rate: "success",
  resolved_exploit_rate: "resolved",
};

/** A rate's change with its bootstrap interval; for an exploit rate, McNemar's pairs and p. */
function changeColumn(k: RateKey): ModelColumn {
  const fields: Field[] = [
    { key: `${k}_change`, tex: `$\\Delta$ ${rateTex(k)}` },
    { key: `${k}_ci_low`, tex: "low" },
    { key: `${k}_ci_high`, tex: "high" },
  ];
  if (isBinary(k))
    fields.push(
      { key: `${k}_pairs` },
      { key: `${k}_b` },
      { key: `${k}_c` },
      { key: `${k}_p`, tex: `$p$ ${rateTex(k)}`, digits: 3 },
    );
  return { key: k, label: `Δ ${RATE_LABELS[k]}`, numeric: true, fields };
}

function changeCell(c: PairedChange, k: RateKey): ModelCell {
  const group: TrajectoryFilter = { benchmark: c.benchmark, model: c.model, network: c.network ? "on" : "off" };
  const words = conditionWords(c);
  const paired = { ...group, pair: "task" as const };
  const b = c.bootstrap[k];
  const cell: FigureCell = {
    ...(isBinary(k)
      ? linked(pp(b.change), b.change, { ...paired, panel: "judged" }, c.judged)
      : linked(pp(b.change), b.change, paired, c.trajectories)),
    label: `Δ ${RATE_LABELS[k]} of ${words}: ${pp(b.change)}`,
    sub: b.low === null ? undefined : `95% ${range(b.low, b.high)}`,
  };
  if (!isBinary(k)) return valued(cell, b.change, b.low, b.high);
  const m = c.mcnemar[k];
  const side = (prompt: "vanilla" | "principled"): TrajectoryFilter => ({ ...group, prompt, pair: PAIR[k], ...YES[k] });
  return valued(
    {
      ...cell,
      parts: [
        {
          text: `${count(m.pairs)} pairs`,
          href: trajectoriesHref({ ...group, prompt: "vanilla", pair: "run" }),
          count: m.pairs,
          label: `pairs for ${RATE_LABELS[k]}, ${words}: ${m.pairs}`,
        },
        { text: ": " },
        {
          text: `${count(m.b)} yes→no`,
          href: trajectoriesHref(side("vanilla")),
          count: m.b,
          label: `${RATE_LABELS[k]} yes under vanilla, no under principled, ${words}: ${m.b}`,
        },
        { text: ", " },
        {
          text: `${count(m.c)} no→yes`,
          href: trajectoriesHref(side("principled")),
          count: m.c,
          label: `${RATE_LABELS[k]} no under vanilla, yes under principled, ${words}: ${m.c}`,
        },
        { text: "\n" },
        { text: `McNemar ${pValue(m.p)}` },
      ],
    },
    b.change,
    b.low,
    b.high,
    m.pairs,
    m.b,
    m.c,
    m.p,
  );
}

export function changesModel(changes: readonly PairedChange[]): TableModel {
  return {
    name: "changes",
    title: TABLE_TITLES.changes,
    columns: [
      ...conditionColumns(false),
      {
        key: "tasks",
        label: "Tasks (both prompts)",
        numeric: true,
        fields: [{ key: "tasks", tex: "Tasks", digits: 0 }, { key: "resamples" }],
      },
      ...RATE_KEYS.map(changeColumn),
    ],
    rows: changes.map(
      (c): ModelRow => ({
        key: rowKey(c),
        cells: [
          ...conditionCells(c),
          valued(
            linked(
              count(c.tasks),
              c.tasks,
              { benchmark: c.benchmark, model: c.model, network: c.network ? "on" : "off", pair: "task" },
              c.trajectories,
              `tasks under both prompts, ${conditionWords(c)}: ${c.tasks}`,
            ),
            c.tasks,
            c.bootstrap.pass_at_1.resamples,
          ),
          ...RATE_KEYS.map((k) => changeCell(c, k)),
        ],
      }),
    ),
  };
}
