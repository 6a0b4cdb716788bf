// Data for the result charts, prepared here so the chart components only draw (and this is tested).

import { ascendingMean } from "./intervals";
import { type TaskTally, tasksOf } from "./rates";
import type { ResultRow } from "./results";
import { shownText } from "./text";

export const networkMark = (network: boolean) => (network ? "✓" : "×");
/** In a sentence: "on ✓" / "off ×". */
export const networkWords = (network: boolean) => (network ? "on ✓" : "off ×");

/** A trajectory's condition in one line: "swe-bench · model · network on ✓ · vanilla · run 2". */
export function conditionText(c: {
  benchmark: string;
  model: string;
  network: boolean;
  prompt: string;
  run: number;
}): string {
  return shownText([c.benchmark, c.model, `network ${networkWords(c.network)}`, c.prompt, `run ${c.run}`].join(" · "));
}

/** The x-axis group of a model and network setting, e.g. "glm-5.3 · net ✓". */
export function groupLabel(model: string, network: boolean): string {
  return `${model} · net ${networkMark(network)}`;
}

export type ExploitBar = {
  group: string;
  vanilla_attempt: number | null;
  principled_attempt: number | null;
  vanilla_success: number | null;
  principled_success: number | null;
};

/** Attempt and success rates, vanilla beside principled, per model and network setting of one benchmark. */
export function exploitRateBars(rows: readonly ResultRow[], benchmark: string): ExploitBar[] {
  const bars = new Map<string, ExploitBar>();
  for (const r of rows.filter((x) => x.benchmark === benchmark)) {
    const group = groupLabel(r.model, r.network);
    const bar = bars.get(group) ?? {
      group,
      vanilla_attempt: null,
      principled_attempt: null,
      vanilla_success: null,
      principled_success: null,
    };
    bar[`${r.prompt}_attempt`] = r.attempt_rate;
    bar[`${r.prompt}_success`] = r.success_rate;
    bars.set(group, bar);
  }
  return [...bars.values()];
}

export type ResolveBar = { group: string; resolved: number | null; without_exploits: number | null };

/** Each condition's Pass@1 beside the same mean with exploit-aided resolutions counted as failures. */
export function resolveRateBars(rows: ReadonlyArray<{ label: string; tasks: readonly TaskTally[] }>): ResolveBar[] {
  return rows.map((r) => {
    const known = r.tasks.filter((t) => t.n > 0);
    const mean = (f: (t: TaskTally) => number) =>
      known.length ? ascendingMean(known.map((t) => ({ value: f(t) / t.n, times: tasksOf(t) }))) * 100 : null;
    return { group: r.label, resolved: mean((t) => t.c), without_exploits: mean((t) => t.c - (t.e ?? 0)) };
  });
}
