// The result table's breakdowns as table models: the per-category panel rates, each judge beside
// the panel, and the unparseable answers, every figure linked to exactly the trajectories it counts.
import { conditionFilter, drillDown } from "./drill-down";
import { linked, plain, valued, type ModelColumn, type ModelRow, type TableModel } from "./figure-table";
import { categoryRates, judgeRates, type ConditionResult } from "./results";
import { latexEscape } from "./table-format";
import {
  TABLE_TITLES,
  conditionCells,
  conditionColumns,
  conditionWords,
  count,
  counted,
  pct,
  rowKey,
} from "./table-columns";
import { CATEGORIES, CATEGORY_LABELS } from "./verdicts";

/** Per-category panel verdicts: attempt and success rate of each category, with its count and interval. */
export function categoriesModel(conditions: readonly ConditionResult[]): TableModel {
  const side = (c: (typeof CATEGORIES)[number], which: "attempt" | "success"): ModelColumn => {
    const k = `${c.toLowerCase()}_${which}`;
    return {
      key: `${c}-${which[0]}`,
      label: `${CATEGORY_LABELS[c]} ${which}`,
      numeric: true,
      shows: 1,
      fields: [
        { key: `${c.toLowerCase()}_${which === "attempt" ? "attempts" : "successes"}` },
        { key: `${k}_rate`, tex: `${latexEscape(CATEGORY_LABELS[c])} ${which === "attempt" ? "att." : "succ."}` },
        { key: `${k}_ci_low` },
        { key: `${k}_ci_high` },
      ],
    };
  };
  return {
    name: "categories",
    title: TABLE_TITLES.categories,
    columns: [
      ...conditionColumns(),
      { ...counted("judged", "Judged", "Judged"), onPage: false },
      ...CATEGORIES.flatMap((c) => [side(c, "attempt"), side(c, "success")]),
    ],
    rows: conditions.map(({ row: r, categories }) => {
      const rates = categoryRates(categories);
      const base = drillDown(r).judged;
      const words = conditionWords(r);
      return {
        key: rowKey(r),
        cells: [
          ...conditionCells(r),
          plain(categories.judged, count(categories.judged)),
          ...CATEGORIES.flatMap((c) => [
            valued(
              linked(
                pct(rates[c].attempt_rate),
                rates[c].attempt_rate,
                { ...base, category: c, categoryVerdict: "attempt" },
                categories.attempts[c],
                `${CATEGORY_LABELS[c]} attempt of ${words}: ${pct(rates[c].attempt_rate)}`,
              ),
              categories.attempts[c],
              rates[c].attempt_rate,
              rates[c].attempt?.low ?? null,
              rates[c].attempt?.high ?? null,
            ),
            valued(
              linked(
                pct(rates[c].success_rate),
                rates[c].success_rate,
                { ...base, category: c, categoryVerdict: "SUCCESSFUL" },
                categories.successes[c],
                `${CATEGORY_LABELS[c]} success of ${words}: ${pct(rates[c].success_rate)}`,
              ),
              categories.successes[c],
              rates[c].success_rate,
              rates[c].success?.low ?? null,
              rates[c].success?.high ?? null,
            ),
          ]),
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
              valued(
                linked(count(j.votes), j.votes, by, j.votes, `votes of ${j.judge}, ${words}: ${j.votes}`),
                j.votes,
              ),
              valued(
                linked(pct(jr.attempt_rate), jr.attempt_rate, { ...by, judgeVerdict: "attempt" }, j.attempts),
                j.attempts,
                jr.attempt_rate,
              ),
              valued(
                linked(pct(jr.success_rate), jr.success_rate, { ...by, judgeVerdict: "SUCCESSFUL" }, j.successes),
                j.successes,
                jr.success_rate,
              ),
              valued(
                linked(count(j.unparseable), j.unparseable, { ...by, judgeVerdict: "unparseable" }, j.unparseable),
                j.unparseable,
              ),
            ],
          };
        }),
        {
          key: rowKey(r, "\u0000panel"),
          className: "panel-row",
          cells: [
            ...conditionCells(r),
            { ...plain("panel"), strong: true },
            valued(
              linked(count(r.judged), r.judged, { ...base, panel: "judged" }, r.judged, `judged, panel, ${words}`),
              r.judged,
            ),
            valued(
              linked(pct(r.attempt_rate), r.attempt_rate, { ...base, panel: "attempt" }, tallies.attempts),
              tallies.attempts,
              r.attempt_rate,
            ),
            valued(
              linked(pct(r.success_rate), r.success_rate, { ...base, panel: "SUCCESSFUL" }, tallies.successes),
              tallies.successes,
              r.success_rate,
            ),
            valued(
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
              unparseableTrajectories,
            ),
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
