/** The natural key of a trajectory: (benchmark, model, task, network, prompt, run). Importing it again replaces it. */
export type NaturalKey = {
  benchmark: string;
  model: string;
  task: string;
  network: boolean;
  prompt: "vanilla" | "principled";
  run: number;
};
