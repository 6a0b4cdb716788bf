// The results page's charts as data, each series opening the same lists as the tables.
import { type ExploitBar, exploitRateBars, groupLabel, type ResolveBar, resolveRateBars } from "./charts";
import { drillDown } from "./drill-down";
import type { ConditionResult } from "./results";
import { trajectoriesHref } from "./trajectory-filter";

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
