// A judge run's filter fields: a condition, or with a task and a run one trajectory.
export const FILTER_FIELDS = ["benchmark", "model", "network", "prompt", "task", "run"] as const;
export type RunField = (typeof FILTER_FIELDS)[number];

/** The Judges page's run form, filled in for one trajectory (its natural key): "ask the judges about it". */
export function askJudgesHref(t: {
  benchmark: string;
  model: string;
  network: boolean;
  prompt: string;
  task: string;
  run: number;
}): string {
  const q = new URLSearchParams({
    benchmark: t.benchmark,
    model: t.model,
    network: t.network ? "on" : "off",
    prompt: t.prompt,
    task: t.task,
    run: String(t.run),
  });
  return `/judges?${q}#runs`;
}
