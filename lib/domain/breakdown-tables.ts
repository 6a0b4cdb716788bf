// The result table's breakdowns as models: categories, each judge, unparseable answers.
import { conditionFilter, drillDown } from "./drill-down";
import { type ModelColumn, type ModelRow, plain, type TableModel } from "./figure-table";
import { type ConditionResult, categoriesCounted, categoryRate, judgeRates } from "./results";
import {
  conditionCells,
  conditionColumns,
  conditionWords,
  count,
  countCell,
  counted,
  pct,
  rateCell,
  rowKey,
  TABLE_TITLES,
} from "./table-columns";
import { latexEscape } from "./table-format";

/** Per-category panel verdicts: each category's judged count, attempt and success rate, with interval. */
export function categoriesModel(conditions: readonly ConditionResult[]): TableModel {
  const keys = categoriesCounted(conditions);
  const names = new Map(conditions.flatMap((c) => c.categories.map((x) => [x.key, x.name ?? x.key] as const)));
  const name = (c: string) => names.get(c) ?? c;
  const judgedColumn = (c: string): ModelColumn => ({
    key: `${c}-j`,
    label: `${name(c)} judged`,
    numeric: true,
    fields: [{ key: `${c.toLowerCase()}_judged`, tex: `${latexEscape(name(c))} n` }],
  });
  const side = (c: string, which: "attempt" | "success"): ModelColumn => {
    const k = `${c.toLowerCase()}_${which}`;
    return {
      key: `${c}-${which[0]}`,
      label: `${name(c)} ${which}`,
      numeric: true,
      shows: 1,
      fields: [
        { key: `${c.toLowerCase()}_${which === "attempt" ? "attempts" : "successes"}` },
        { key: `${k}_rate`, tex: `${latexEscape(name(c))} ${which === "attempt" ? "att." : "succ."}` },
        { key: `${k}_ci_low` },
        { key: `${k}_ci_high` },
      ],
    };
  };
  return {
    name: "categories",
    title: TABLE_TITLES.categories,
    columns: [...conditionColumns(), ...keys.flatMap((c) => [judgedColumn(c), side(c, "attempt"), side(c, "success")])],
    rows: conditions.map(({ row: r, categories }) => {
      const base = drillDown(r).judged;
      const words = conditionWords(r);
      return {
        key: rowKey(r),
        cells: [
          ...conditionCells(r),
          ...keys.flatMap((c) => {
            const rate = categoryRate(categories, c);
            const tally = categories.find((x) => x.key === c);
            const sides = (["attempt", "success"] as const).map((which) => {
              const part = (which === "attempt" ? tally?.attempts : tally?.successes) ?? 0;
              const cell = rateCell(
                rate[`${which}_rate`],
                part,
                { ...base, category: c, categoryVerdict: which === "attempt" ? "attempt" : "SUCCESSFUL" },
                `${name(c)} ${which} of ${words}: ${pct(rate[`${which}_rate`])} of ${count(rate.judged)} judged in it`,
              );
              return { ...cell, values: [...cell.values, rate[which]?.low ?? null, rate[which]?.high ?? null] };
            });
            return [plain(rate.judged, count(rate.judged)), ...sides];
          }),
        ],
      };
    }),
  };
}

/** Each judge's own verdicts per condition, then the panel's row (its votes: the judged trajectories). */
export function judgesModel(conditions: readonly ConditionResult[]): TableModel {
  return {
    name: "judges",
    title: TABLE_TITLES.judges,
    columns: [
      ...conditionColumns(),
      { key: "judge", label: "Judge", fields: [{ key: "judge", tex: "Judge" }] },
      counted("votes", "Votes", "Votes"),
      {
        key: "attempt",
        label: "Attempt %",
        numeric: true,
        shows: 1,
        fields: [{ key: "attempts" }, { key: "attempt_rate", tex: "Attempt" }],
      },
      {
        key: "success",
        label: "Success %",
        numeric: true,
        shows: 1,
        fields: [{ key: "successes" }, { key: "success_rate", tex: "Success" }],
      },
      counted("unparseable", "Unparseable", "Unparseable"),
    ],
    rows: conditions.flatMap(({ row: r, tallies, judges, unparseableTrajectories }): ModelRow[] => {
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
              plain(j.judge),
              countCell(j.votes, by, `votes of ${j.judge}, ${words}: ${j.votes}`),
              rateCell(jr.attempt_rate, j.attempts, { ...by, judgeVerdict: "attempt" }),
              rateCell(jr.success_rate, j.successes, { ...by, judgeVerdict: "SUCCESSFUL" }),
              countCell(j.unparseable, { ...by, judgeVerdict: "unparseable" }),
            ],
          };
        }),
        {
          key: rowKey(r, "\u0000panel"),
          className: "panel-row",
          cells: [
            ...conditionCells(r),
            { ...plain("panel"), strong: true },
            countCell(r.judged, { ...base, panel: "judged" }, `judged, panel, ${words}`),
            rateCell(r.attempt_rate, tallies.attempts, { ...base, panel: "attempt" }),
            rateCell(r.success_rate, tallies.successes, { ...base, panel: "SUCCESSFUL" }),
            {
              ...countCell(
                unparseableTrajectories,
                { ...base, unparseable: "yes" },
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

/** Unparseable answers per condition: the votes, those unparseable, and the trajectories with one. */
export function unparseableModel(conditions: readonly ConditionResult[]): TableModel {
  return {
    name: "unparseable",
    title: TABLE_TITLES.unparseable,
    columns: [
      ...conditionColumns(),
      counted("votes", "Votes", "Votes"),
      counted("unparseable_votes", "Unparseable", "Unparseable"),
      counted("unparseable_trajectories", "Trajectories", "Trajectories"),
    ],
    rows: conditions.map((r) => {
      const votes = r.judges.reduce((n, j) => n + j.votes, 0);
      return {
        key: rowKey(r.row),
        cells: [
          ...conditionCells(r.row),
          plain(votes, count(votes)),
          plain(r.unparseable, count(r.unparseable)),
          plain(r.unparseableTrajectories, count(r.unparseableTrajectories)),
        ],
      };
    }),
  };
}
