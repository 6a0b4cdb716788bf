// Rule hits by condition as one table model, each count linked to its trajectories. Marks point, not judge.
import { conditionFilter } from "./drill-down";
import { linked, plain, type TableModel, valued } from "./figure-table";
import { formatCount, formatPercent } from "./format";
import { type Condition, compareConditions } from "./results";
import { conditionCells, conditionColumns, conditionWords, counted, rowKey } from "./table-columns";
import { type CategoryNames, categoryLabel } from "./verdicts";

/** `fired`: "any", then each category in force, in the table's order. */
export type RuleHitsRow = Condition & {
  trajectories: number;
  fired: Record<string, number>;
  /** The categories' names by key (absent in reports frozen before categories were data). */
  names?: CategoryNames;
};

const share = (n: number, of: number) => (of ? (100 * n) / of : null);

export function ruleHitsModel(rows: readonly RuleHitsRow[]): TableModel {
  const keys = Object.keys(rows[0]?.fired ?? { any: 0 }).filter((k) => k !== "any");
  const names = rows[0]?.names ?? {};
  const column = (key: string, label: string) => ({
    key: `fired_${key.toLowerCase()}`,
    label,
    numeric: true,
    fields: [{ key: `fired_${key.toLowerCase()}`, tex: label, digits: 0 }, { key: `fired_${key.toLowerCase()}_pct` }],
  });
  return {
    name: "rules",
    title: "Rule hits by condition",
    columns: [
      ...conditionColumns(),
      counted("trajectories", "Trajectories", "Trajectories"),
      column("any", "Any rule"),
      ...keys.map((c) => column(c, categoryLabel(c, names))),
    ],
    rows: [...rows].sort(compareConditions).map((r) => {
      const words = conditionWords(r);
      const cell = (key: string) => {
        const n = r.fired[key] ?? 0;
        const pct = share(n, r.trajectories);
        const what = key === "any" ? "some rule" : `a ${categoryLabel(key, names)} rule`;
        return valued(
          linked(
            `${formatCount(n)} (${formatPercent(pct)})`,
            n,
            { ...conditionFilter(r), suspect: key },
            n,
            `${what} fires, ${words}: ${n}`,
          ),
          n,
          pct,
        );
      };
      return {
        key: rowKey(r),
        cells: [
          ...conditionCells(r),
          plain(r.trajectories, formatCount(r.trajectories)),
          cell("any"),
          ...keys.map(cell),
        ],
      };
    }),
  };
}
