// The paired changes as table models, vanilla → principled and network on → off: bootstrap intervals,
// McNemar's pairs and p, every count linked to its trajectories.
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
import { type BinaryKey, isBinary, type NetworkChange, type PairedChange, type PairedStats } from "./paired";
import { RATE_KEYS, RATE_LABELS, type RateKey } from "./results";
import {
  conditionCells,
  conditionColumns,
  conditionWords,
  count,
  type Group,
  pp,
  pValue,
  range,
  rateTex,
  rowKey,
  TABLE_TITLES,
} from "./table-columns";
import { type TrajectoryFilter, trajectoriesHref } from "./trajectory-filter";

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

/** What a change pairs: its groups' list filter, its two sides as filters and words, the tasks' column. */
type Axis<C> = {
  name: "changes" | "network";
  group: (c: C) => TrajectoryFilter & { pairBy?: "network" };
  sides: [TrajectoryFilter, TrajectoryFilter];
  words: [string, string];
  both: string;
};

const PROMPTS: Axis<PairedChange> = {
  name: "changes",
  group: (c) => ({ benchmark: c.benchmark, model: c.model, network: c.network ? "on" : "off" }),
  sides: [{ prompt: "vanilla" }, { prompt: "principled" }],
  words: ["under vanilla", "under principled"],
  both: "both prompts",
};
const NETWORK: Axis<NetworkChange> = {
  name: "network",
  group: (c) => ({ benchmark: c.benchmark, model: c.model, prompt: c.prompt, pairBy: "network" }),
  sides: [{ network: "on" }, { network: "off" }],
  words: ["with the network", "without it"],
  both: "network on and off",
};

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

function changeCell<C extends Group & PairedStats>(axis: Axis<C>, c: C, k: RateKey): ModelCell {
  const group = axis.group(c);
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
  const side = (i: 0 | 1): TrajectoryFilter => ({ ...group, ...axis.sides[i], pair: PAIR[k], ...YES[k] });
  const [before, after] = axis.words;
  const part = (text: string, href: TrajectoryFilter, n: number, label: string) => ({
    text,
    href: trajectoriesHref(href),
    count: n,
    label: `${label}, ${words}: ${n}`,
  });
  return valued(
    {
      ...cell,
      parts: [
        part(
          `${count(m.pairs)} pairs`,
          { ...group, ...axis.sides[0], pair: "run" },
          m.pairs,
          `pairs for ${RATE_LABELS[k]}`,
        ),
        { text: ": " },
        part(`${count(m.b)} yes→no`, side(0), m.b, `${RATE_LABELS[k]} yes ${before}, no ${after}`),
        { text: ", " },
        part(`${count(m.c)} no→yes`, side(1), m.c, `${RATE_LABELS[k]} no ${before}, yes ${after}`),
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

function pairedModel<C extends Group & PairedStats>(axis: Axis<C>, changes: readonly C[]): TableModel {
  return {
    name: axis.name,
    title: TABLE_TITLES[axis.name],
    columns: [
      ...conditionColumns(axis.name === "network", axis.name === "changes"),
      {
        key: "tasks",
        label: `Tasks (${axis.both})`,
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
              { ...axis.group(c), pair: "task" },
              c.trajectories,
              `tasks under ${axis.both}, ${conditionWords(c)}: ${c.tasks}`,
            ),
            c.tasks,
            c.bootstrap.pass_at_1.resamples,
          ),
          ...RATE_KEYS.map((k) => changeCell(axis, c, k)),
        ],
      }),
    ),
  };
}

export const changesModel = (changes: readonly PairedChange[]) => pairedModel(PROMPTS, changes);
export const networkChangesModel = (changes: readonly NetworkChange[]) => pairedModel(NETWORK, changes);
