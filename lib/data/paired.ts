import "server-only";
// Vanilla → principled per benchmark × model × network, the bootstrap off the request thread.
import type { RunGroup } from "@/lib/domain/off-thread";
import type { Group, PairedChange, PairedRun } from "@/lib/domain/paired";
import { compareConditions } from "@/lib/domain/results";
import { offThread } from "@/lib/server/compute-thread";
import { statement } from "./sql";

const RUNS_SQL = `
  SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt, t."taskId"::text AS task,
    t.run, t.resolved, t."panelVerdict" AS panel
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"`;

export async function getPairedChanges(): Promise<PairedChange[]> {
  const rows = await statement<Group & PairedRun>(RUNS_SQL);
  const groups = new Map<string, RunGroup>();
  for (const r of rows) {
    const key = `${r.benchmark}\u0000${r.model}\u0000${r.network}`;
    const g = groups.get(key) ?? { group: { benchmark: r.benchmark, model: r.model, network: r.network }, runs: [] };
    g.runs.push({ task: r.task, run: r.run, prompt: r.prompt, resolved: r.resolved, panel: r.panel });
    groups.set(key, g);
  }
  const paired = [...groups.values()].filter(
    (g) => g.runs.some((r) => r.prompt === "vanilla") && g.runs.some((r) => r.prompt === "principled"),
  );
  // The bootstrap on a thread of its own: the request thread goes on serving while it resamples.
  return (await offThread("pairedChanges", paired)).sort((a, b) =>
    compareConditions({ ...a, prompt: "vanilla" }, { ...b, prompt: "vanilla" }),
  );
}
