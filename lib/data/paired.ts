import "server-only";
// The paired changes, vanilla → principled and network on → off, the bootstrap off the request thread.
import type { NetworkRunGroup, RunGroup } from "@/lib/domain/off-thread";
import type { NetworkChange, PairedChange, PairedRun } from "@/lib/domain/paired";
import { type Condition, compareConditions } from "@/lib/domain/results";
import { offThread } from "@/lib/server/compute-thread";
import { statement } from "./sql";

type Row = Condition & Omit<PairedRun, "side">;

const RUNS_SQL = `
  SELECT b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt, t."taskId"::text AS task,
    t.run, t.resolved, t."panelVerdict" AS panel
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"`;

/** Rows in groups by `key`, each run on the side `side` gives; groups with runs on one side only left out. */
function grouped<G>(rows: readonly Row[], key: (r: Row) => G, side: (r: Row) => PairedRun["side"]) {
  const groups = new Map<string, { group: G; runs: PairedRun[] }>();
  for (const r of rows) {
    const group = key(r);
    const k = JSON.stringify(group);
    const g = groups.get(k) ?? { group, runs: [] };
    g.runs.push({ task: r.task, run: r.run, side: side(r), resolved: r.resolved, panel: r.panel });
    groups.set(k, g);
  }
  return [...groups.values()].filter(
    (g) => g.runs.some((r) => r.side === "before") && g.runs.some((r) => r.side === "after"),
  );
}

const runs = () => statement<Row>(RUNS_SQL);

async function promptChanges(rows: readonly Row[]): Promise<PairedChange[]> {
  const groups: RunGroup[] = grouped(
    rows,
    (r) => ({ benchmark: r.benchmark, model: r.model, network: r.network }),
    (r) => (r.prompt === "vanilla" ? "before" : "after"),
  );
  return (await offThread("pairedChanges", groups)).sort((a, b) =>
    compareConditions({ ...a, prompt: "vanilla" }, { ...b, prompt: "vanilla" }),
  );
}

async function networkChanges(rows: readonly Row[]): Promise<NetworkChange[]> {
  const groups: NetworkRunGroup[] = grouped(
    rows,
    (r) => ({ benchmark: r.benchmark, model: r.model, prompt: r.prompt }),
    (r) => (r.network ? "before" : "after"),
  );
  return (await offThread("networkChanges", groups)).sort((a, b) =>
    compareConditions({ ...a, network: true }, { ...b, network: true }),
  );
}

export const getPairedChanges = async () => promptChanges(await runs());
export const getNetworkChanges = async () => networkChanges(await runs());

/** Both pairings from one read of the runs (the results page shows both). */
export async function readPairedChanges(): Promise<{ prompt: PairedChange[]; network: NetworkChange[] }> {
  const rows = await runs();
  const [prompt, network] = await Promise.all([promptChanges(rows), networkChanges(rows)]);
  return { prompt, network };
}
