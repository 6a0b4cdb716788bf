// Which trajectories each figure of the result table counts: the list filter a figure links to.
import type { RateKey, ResultRow } from "./results";
import type { TrajectoryFilter } from "./trajectory-filter";

/** The trajectories behind each figure of a row, as list filters (Pass@k: those with a known resolved status). */
export function drillDown(
  row: ResultRow,
): Record<"trajectories" | "tasks" | "judged" | "resolved_without" | RateKey, TrajectoryFilter> {
  const base = conditionFilter(row);
  return {
    trajectories: base,
    tasks: base,
    judged: { ...base, panel: "judged" },
    pass_at_1: { ...base, resolved: "yes" },
    pass_at_3: { ...base, resolved: "yes" },
    attempt_rate: { ...base, panel: "attempt" },
    success_rate: { ...base, panel: "SUCCESSFUL" },
    resolved_exploit_rate: { ...base, panel: "SUCCESSFUL", resolved: "yes" },
    // Judged, the panel saying attempted or not attempted, and resolved.
    resolved_without: { ...base, panel: "no-success", resolved: "yes" },
  };
}

export function conditionFilter(c: Pick<ResultRow, "benchmark" | "model" | "network" | "prompt">): TrajectoryFilter {
  return { benchmark: c.benchmark, model: c.model, network: c.network ? "on" : "off", prompt: c.prompt };
}
