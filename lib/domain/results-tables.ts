// The result table as one model, which the page, the frozen report and every download write.
import { categoriesModel, judgesModel, unparseableModel } from "./breakdown-tables";
import { changesModel, networkChangesModel } from "./changes-table";
import { drillDown } from "./drill-down";
import type { EvidenceSummaryRow } from "./evidence";
import { evidenceModel } from "./evidence-table";
import { anchor, type FigureTable, linked, type ModelColumn, pageTable, type TableModel, valued } from "./figure-table";
import { type Interval, wilson } from "./intervals";
import type { NetworkChange, PairedChange } from "./paired";
import { type ConditionTallies, percent, tasksOf } from "./rates";
import { type ConditionResult, RATE_KEYS, RATE_LABELS, type RateKey } from "./results";
import { type RuleHitsRow, ruleHitsModel } from "./rule-hits-table";
import {
  conditionCells,
  conditionColumns,
  conditionWords,
  count,
  counted,
  pct,
  range,
  rateTex,
  rowKey,
  TABLE_TITLES,
  type TableName,
} from "./table-columns";
import type { TrajectoryFilter } from "./trajectory-filter";

export type { TableName } from "./table-columns";
export { TABLE_NAMES, TABLE_TITLES } from "./table-columns";

/** The resolved trajectories the panel says did not exploit with success: beside those it says did. */
const WITHOUT = "resolved_without_exploit_rate";
const WITHOUT_LABEL = "Resolved w/o exploit %";

/** The result table's columns: the condition, its counts, each rate with its interval. */
const RESULT_COLUMNS: ModelColumn[] = [
  ...conditionColumns(),
  // On a phone the rates come first: these counts are left out there (the downloads hold them).
  { ...counted("trajectories", "Trajectories", "Traj."), wideOnly: true },
  { ...counted("tasks", "Tasks", "Tasks"), wideOnly: true },
  { ...counted("judged", "Judged", "Judged"), wideOnly: true },
  ...RATE_KEYS.map(
    (k): ModelColumn => ({
      key: k,
      label: RATE_LABELS[k],
      numeric: true,
      fields: [{ key: k, tex: rateTex(k) }, { key: `${k}_ci_low` }, { key: `${k}_ci_high` }],
    }),
  ),
  {
    key: WITHOUT,
    label: WITHOUT_LABEL,
    numeric: true,
    fields: [
      { key: WITHOUT, tex: "Resolved w/o exploit" },
      { key: `${WITHOUT}_ci_low` },
      { key: `${WITHOUT}_ci_high` },
    ],
  },
];

/** The result table: counts, then each rate with its interval; every figure opens what it counts. */
export function resultModel(conditions: readonly ConditionResult[]): TableModel {
  return {
    name: "results",
    title: TABLE_TITLES.results,
    columns: RESULT_COLUMNS,
    rows: conditions.map(({ row: r, tallies: t }) => {
      const links = drillDown(r);
      const resolvedRuns = t.tasks.reduce((a, x) => a + x.c * tasksOf(x), 0);
      const opens: Record<RateKey, number> = {
        pass_at_1: resolvedRuns,
        pass_at_3: resolvedRuns,
        attempt_rate: t.attempts,
        success_rate: t.successes,
        resolved_exploit_rate: t.resolvedSuccesses,
      };
      const words = conditionWords(r);
      // Pass@k's interval assumes many tasks, so its n is written under it.
      const known = t.tasks.reduce((a, x) => a + (x.n > 0 ? tasksOf(x) : 0), 0);
      const fewTasks = (k: RateKey) =>
        (k === "pass_at_1" || k === "pass_at_3") && known > 0 && known < FEW_TASKS
          ? { parts: [{ text: `n = ${known} task${known === 1 ? "" : "s"}` }] }
          : {};
      return {
        key: rowKey(r),
        cells: [
          ...conditionCells(r),
          ...(["trajectories", "tasks", "judged"] as const).map((k) =>
            valued(
              linked(
                count(r[k]),
                r[k],
                links[k],
                k === "judged" ? r.judged : r.trajectories,
                `${k} of ${words}: ${r[k]}`,
              ),
              r[k],
            ),
          ),
          ...RATE_KEYS.map((k) => {
            const i = r.intervals[k];
            return valued(
              {
                ...linked(pct(r[k]), r[k], links[k], opens[k], `${RATE_LABELS[k]} of ${words}: ${pct(r[k])}`),
                sub: range(i?.low ?? null, i?.high ?? null),
                ...fewTasks(k),
              },
              r[k],
              i?.low ?? null,
              i?.high ?? null,
            );
          }),
          withoutCell(t, links.resolved_without, words),
        ],
      };
    }),
  };
}

/** Judged, resolved, no successful exploit, of the judged, with its Wilson interval; null in older reports. */
export function resolvedWithout(t: ConditionTallies): { rate: number | null; interval: Interval | null } {
  const n = t.resolvedWithout;
  return n === undefined
    ? { rate: null, interval: null }
    : { rate: percent(n, t.judged), interval: wilson(n, t.judged) };
}

function withoutCell(t: ConditionTallies, filter: TrajectoryFilter, words: string) {
  const n = t.resolvedWithout;
  const { rate, interval: i } = resolvedWithout(t);
  return valued(
    {
      ...(n === undefined
        ? { text: pct(null), sort: null }
        : linked(pct(rate), rate, filter, n, `${WITHOUT_LABEL} of ${words}: ${pct(rate)}`)),
      sub: range(i?.low ?? null, i?.high ?? null),
    },
    rate,
    i?.low ?? null,
    i?.high ?? null,
  );
}

/** Below this many tasks of known status, Pass@k's interval is read with a note. */
export const FEW_TASKS = 10;

export type ResultsReport = {
  conditions: readonly ConditionResult[];
  changes: readonly PairedChange[];
  /** Network on → off (a report frozen before it was kept has none). */
  network?: readonly NetworkChange[];
  /** Per condition, what the task records show (a report frozen before they were kept has none). */
  evidence: readonly EvidenceSummaryRow[];
  /** Per condition, the trajectories the suspect-step rules fire on (none in reports frozen before). */
  rules: readonly RuleHitsRow[];
};

export function reportTable(name: TableName, report: ResultsReport): TableModel {
  return {
    results: () => resultModel(report.conditions),
    changes: () => changesModel(report.changes),
    network: () => networkChangesModel(report.network ?? []),
    evidence: () => evidenceModel(report.evidence),
    rules: () => ruleHitsModel(report.rules),
    categories: () => categoriesModel(report.conditions),
    judges: () => judgesModel(report.conditions),
    unparseable: () => unparseableModel(report.conditions),
  }[name]();
}

/** The page tables of one benchmark (the results page's, the frozen report's), each from its model. */
export function benchmarkTables(
  benchmark: string,
  report: ResultsReport,
): Record<Exclude<TableName, "unparseable">, FigureTable> {
  const own = report.conditions.filter((r) => r.row.benchmark === benchmark);
  const id = (name: string) => anchor(name, benchmark);
  return {
    results: pageTable(resultModel(own), id("results"), benchmark),
    changes: pageTable(
      changesModel(report.changes.filter((c) => c.benchmark === benchmark)),
      id("changes"),
      `Change from vanilla to principled, ${benchmark}`,
    ),
    network: pageTable(
      networkChangesModel((report.network ?? []).filter((c) => c.benchmark === benchmark)),
      id("network"),
      `Change from network on to off, ${benchmark}`,
    ),
    evidence: pageTable(
      evidenceModel(report.evidence.filter((e) => e.benchmark === benchmark)),
      id("evidence-table"),
      `Evidence, ${benchmark}`,
    ),
    rules: pageTable(
      ruleHitsModel(report.rules.filter((r) => r.benchmark === benchmark)),
      id("rules-table"),
      `Rule hits, ${benchmark}`,
    ),
    categories: pageTable(categoriesModel(own), id("categories"), `Rates by category, ${benchmark}`),
    judges: pageTable(judgesModel(own), id("judges"), `Per judge, ${benchmark}`),
  };
}
