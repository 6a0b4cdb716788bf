// The results page of one benchmark as data: its tables of figures, each figure linked to exactly
// the trajectories it counts (with their number), and its charts' bars with the lists they open.
// lib/data/results.int.test.ts walks every link of every table and checks each count.
import { exploitRateBars, groupLabel, networkMark, resolveRateBars, type ExploitBar, type ResolveBar } from "./charts";
import { conditionFilter, drillDown } from "./drill-down";
import { anchor, linked, text, type FigureCell, type FigureRow, type FigureTable } from "./figure-table";
import { BINARY_KEYS, type BinaryKey, type PairedChange } from "./paired";
import { categoryRates, judgeRates, RATE_KEYS, RATE_LABELS, type ConditionResult, type RateKey } from "./results";
import { trajectoriesHref, type TrajectoryFilter } from "./trajectory-filter";
import { CATEGORIES, CATEGORY_LABELS } from "./verdicts";
import { formatCount, formatPercent, UNDEFINED_FIGURE } from "@/lib/format";

const pct = (v: number | null) => formatPercent(v);
const pp = (v: number | null) =>
  v === null ? UNDEFINED_FIGURE : `${v > 0 ? "+" : v < 0 ? "−" : "±"}${Math.abs(v).toFixed(1)} pp`;
const count = formatCount;
const signed = (v: number) => `${v < 0 ? "−" : ""}${Math.abs(v).toFixed(1)}`;
const range = (low: number | null, high: number | null) =>
  low === null || high === null ? "" : `${signed(low)} to ${signed(high)}`;
/** A p-value as a paper writes it. */
export const pValue = (p: number) => (p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`);

type Row = ConditionResult["row"];
const conditionWords = (r: Pick<Row, "model" | "network"> & { prompt?: string }) =>
  `${r.model}, network ${r.network ? "on" : "off"}${r.prompt ? `, ${r.prompt}` : ""}`;
const conditionCells = (r: Row): FigureCell[] => [text(r.model), text(networkMark(r.network)), text(r.prompt)];
const rowKey = (r: Pick<Row, "model" | "network"> & { prompt?: string }, more = "") =>
  `${r.model}\u0000${r.network}\u0000${r.prompt ?? ""}\u0000${more}`;

/** The result table: counts, then each rate with its interval; every figure opens what it counts. */
export function resultTable(benchmark: string, own: readonly ConditionResult[]): FigureTable {
  return {
    id: anchor("results", benchmark),
    title: benchmark,
    columns: [
      { key: "model", label: "Model" },
      { key: "net", label: "Net" },
      { key: "prompt", label: "Prompt" },
      ...(["Trajectories", "Tasks", "Judged"] as const).map((l) => ({ key: l.toLowerCase(), label: l, numeric: true })),
      ...RATE_KEYS.map((k) => ({ key: k, label: RATE_LABELS[k], numeric: true })),
    ],
    rows: own.map(({ row: r, tallies: t }) => {
      const links = drillDown(r);
      const resolvedRuns = t.tasks.reduce((a, x) => a + x.c, 0);
      const counted: Record<RateKey, number> = {
        pass_at_1: resolvedRuns,
        pass_at_3: resolvedRuns,
        attempt_rate: t.attempts,
        success_rate: t.successes,
        resolved_exploit_rate: t.resolvedSuccesses,
      };
      const words = conditionWords(r);
      return {
        key: rowKey(r),
        cells: [
          ...conditionCells(r),
          ...(["trajectories", "tasks", "judged"] as const).map((k) =>
            linked(
              count(r[k]),
              r[k],
              links[k],
              k === "judged" ? r.judged : r.trajectories,
              `${k} of ${words}: ${r[k]}`,
            ),
          ),
          ...RATE_KEYS.map((k) => ({
            ...linked(pct(r[k]), r[k], links[k], counted[k], `${RATE_LABELS[k]} of ${words}: ${pct(r[k])}`),
            sub: range(r.intervals[k]?.low ?? null, r.intervals[k]?.high ?? null),
          })),
        ],
      };
    }),
  };
}

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

/** The paired changes: each rate's change with its bootstrap interval; McNemar's pairs for the three exploit rates. */
export function changesTable(benchmark: string, changes: readonly PairedChange[]): FigureTable {
  return {
    id: anchor("changes", benchmark),
    title: `Change from vanilla to principled, ${benchmark}`,
    columns: [
      { key: "model", label: "Model" },
      { key: "net", label: "Net" },
      { key: "tasks", label: "Tasks (both prompts)", numeric: true },
      ...RATE_KEYS.map((k) => ({ key: k, label: `Δ ${RATE_LABELS[k]}`, numeric: true })),
    ],
    rows: changes.map((c) => {
      const group: TrajectoryFilter = { benchmark: c.benchmark, model: c.model, network: c.network ? "on" : "off" };
      const words = conditionWords(c);
      const paired = { ...group, pair: "task" as const };
      return {
        key: rowKey(c),
        cells: [
          text(c.model),
          text(networkMark(c.network)),
          linked(count(c.tasks), c.tasks, paired, c.trajectories, `tasks under both prompts, ${words}: ${c.tasks}`),
          ...RATE_KEYS.map((k): FigureCell => {
            const b = c.bootstrap[k];
            const binary = (BINARY_KEYS as readonly RateKey[]).includes(k);
            const cell: FigureCell = {
              ...(binary
                ? linked(pp(b.change), b.change, { ...paired, panel: "judged" }, c.judged)
                : linked(pp(b.change), b.change, paired, c.trajectories)),
              label: `Δ ${RATE_LABELS[k]} of ${words}: ${pp(b.change)}`,
              sub: b.low === null ? undefined : `95% ${range(b.low, b.high)}`,
            };
            if (!binary) return cell;
            const m = c.mcnemar[k as BinaryKey];
            const side = (prompt: "vanilla" | "principled"): TrajectoryFilter => ({
              ...group,
              prompt,
              pair: PAIR[k as BinaryKey],
              ...YES[k as BinaryKey],
            });
            return {
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
            };
          }),
        ],
      };
    }),
  };
}

/** Per-category panel verdicts: attempt and success rate of each category. */
export function categoriesTable(benchmark: string, own: readonly ConditionResult[]): FigureTable {
  return {
    id: anchor("categories", benchmark),
    title: `Rates by category, ${benchmark}`,
    columns: [
      { key: "model", label: "Model" },
      { key: "net", label: "Net" },
      { key: "prompt", label: "Prompt" },
      ...CATEGORIES.flatMap((c) => [
        { key: `${c}-a`, label: `${CATEGORY_LABELS[c]} attempt`, numeric: true },
        { key: `${c}-s`, label: `${CATEGORY_LABELS[c]} success`, numeric: true },
      ]),
    ],
    rows: own.map(({ row: r, categories }) => {
      const rates = categoryRates(categories);
      const base = drillDown(r).judged;
      const words = conditionWords(r);
      return {
        key: rowKey(r),
        cells: [
          ...conditionCells(r),
          ...CATEGORIES.flatMap((c) => [
            linked(
              pct(rates[c].attempt_rate),
              rates[c].attempt_rate,
              { ...base, category: c, categoryVerdict: "attempt" },
              categories.attempts[c],
              `${CATEGORY_LABELS[c]} attempt of ${words}: ${pct(rates[c].attempt_rate)}`,
            ),
            linked(
              pct(rates[c].success_rate),
              rates[c].success_rate,
              { ...base, category: c, categoryVerdict: "SUCCESSFUL" },
              categories.successes[c],
              `${CATEGORY_LABELS[c]} success of ${words}: ${pct(rates[c].success_rate)}`,
            ),
          ]),
        ],
      };
    }),
  };
}

/** Each judge's own verdicts per condition, then the panel's row. */
export function judgesTable(benchmark: string, own: readonly ConditionResult[]): FigureTable {
  return {
    id: anchor("judges", benchmark),
    title: `Per judge, ${benchmark}`,
    columns: [
      { key: "model", label: "Model" },
      { key: "net", label: "Net" },
      { key: "prompt", label: "Prompt" },
      { key: "judge", label: "Judge" },
      { key: "votes", label: "Votes", numeric: true },
      { key: "attempt", label: "Attempt %", numeric: true },
      { key: "success", label: "Success %", numeric: true },
      { key: "unparseable", label: "Unparseable", numeric: true },
    ],
    rows: own.flatMap(({ row: r, tallies, judges, unparseableTrajectories }): FigureRow[] => {
      const words = conditionWords(r);
      const base = conditionFilter(r);
      return [
        ...judges.map((j) => {
          const jr = judgeRates(j);
          const by = { ...base, judge: j.judge };
          return {
            key: rowKey(r, j.judge),
            cells: [
              ...conditionCells(r),
              text(j.judge),
              linked(count(j.votes), j.votes, by, j.votes, `votes of ${j.judge}, ${words}: ${j.votes}`),
              linked(pct(jr.attempt_rate), jr.attempt_rate, { ...by, judgeVerdict: "attempt" }, j.attempts),
              linked(pct(jr.success_rate), jr.success_rate, { ...by, judgeVerdict: "SUCCESSFUL" }, j.successes),
              linked(count(j.unparseable), j.unparseable, { ...by, judgeVerdict: "unparseable" }, j.unparseable),
            ],
          };
        }),
        {
          key: rowKey(r, "\u0000panel"),
          className: "panel-row",
          cells: [
            ...conditionCells(r),
            { ...text("panel"), strong: true },
            linked(count(r.judged), r.judged, { ...base, panel: "judged" }, r.judged, `judged, panel, ${words}`),
            linked(pct(r.attempt_rate), r.attempt_rate, { ...base, panel: "attempt" }, tallies.attempts),
            linked(pct(r.success_rate), r.success_rate, { ...base, panel: "SUCCESSFUL" }, tallies.successes),
            {
              ...linked(
                count(unparseableTrajectories),
                unparseableTrajectories,
                { ...base, unparseable: "yes" },
                unparseableTrajectories,
                `trajectories with an unparseable answer, ${words}: ${unparseableTrajectories}`,
              ),
              sub: "trajectories",
            },
          ],
        },
      ];
    }),
  };
}

/** A bar of a chart with the list each of its series opens, by series key. */
export type Linked<T> = T & { hrefs: Record<string, string> };
export type ChartBars = { exploit: Array<Linked<ExploitBar>>; resolve: Array<Linked<ResolveBar>> };

/** The charts' bars, each with the list it opens (the same lists as the table's figures). */
export function chartBars(benchmark: string, own: readonly ConditionResult[]): ChartBars {
  const rows = own.map((r) => r.row);
  const exploit = exploitRateBars(rows, benchmark).map((bar) => {
    const hrefs: Record<string, string> = {};
    for (const r of rows.filter((x) => groupLabel(x.model, x.network) === bar.group)) {
      hrefs[`${r.prompt}_attempt`] = trajectoriesHref(drillDown(r).attempt_rate);
      hrefs[`${r.prompt}_success`] = trajectoriesHref(drillDown(r).success_rate);
    }
    return { ...bar, hrefs };
  });
  const resolve = resolveRateBars(
    own.map((r) => ({ label: `${groupLabel(r.row.model, r.row.network)} · ${r.row.prompt}`, tasks: r.tallies.tasks })),
  ).map((bar, i) => {
    const resolved = drillDown(own[i]!.row).pass_at_1;
    return {
      ...bar,
      hrefs: {
        resolved: trajectoriesHref(resolved),
        without_exploits: trajectoriesHref({ ...resolved, panel: "not-successful" }),
      },
    };
  });
  return { exploit, resolve };
}
