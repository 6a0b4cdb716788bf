// npm run cli -- panel show|set|save|adopt|compare: the judges whose majority every figure follows
// (docs/formats.md, "The panel").

import { parseArgs } from "node:util";
import { comparePanelsNamed } from "@/lib/data/panel-compare";
import { adoptPanel, savePanel } from "@/lib/data/panel-set";
import { type PanelMember, panelsJson, parseMember } from "@/lib/data/panels";
import { tableCsv } from "@/lib/domain/figure-table";
import { memberText } from "@/lib/domain/panel-compare";
import { panelComparisonJson, panelComparisonTable } from "@/lib/domain/panel-compare-table";
import { writeOut } from "./output";

export const PANEL_HELP = `  panel show [--format json]           the panel in force, the earlier ones, the candidates
  panel set JUDGE[@vN]... [--name NAME]
                                       put a new panel in force: each judge at a prompt version (without @vN: its
                                       imported votes); every figure, kept page and later report follows it
  panel save JUDGE[@vN]... [--name NAME]
                                       save a candidate panel, to compare before adopting it
  panel compare NAME [--with NAME] --format json|csv
                                       the panel named beside the one in force (or --with): per condition each rate
                                       under both and the paired difference, κ, verdicts that change, gold, cost
  panel adopt NAME                     put a saved panel (a candidate or an earlier one) in force`;

type Fail = (message: string) => never;
type PanelJson = { name: string; judges: Array<{ judge: string; prompt_version: number | null }> };

const jsonMember = (j: { judge: string; prompt_version: number | null }) =>
  memberText({ judge: j.judge, promptVersion: j.prompt_version });
const failWith = (fail: Fail, what: string) => (e: unknown) =>
  fail(`panel ${what}: ${e instanceof Error ? e.message : String(e)}`);

export async function panelCommand(args: string[], fail: Fail): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { format: { type: "string" }, name: { type: "string" }, with: { type: "string" } },
  });
  if (sub === "show") return show(values.format, fail);
  if (sub === "compare") return compare(positionals, values, fail);
  if (sub === "adopt") {
    if (positionals.length !== 1) fail("panel adopt: name one panel (panel show lists them)");
    const panel = await adoptPanel(null, positionals[0]!).catch(failWith(fail, "adopt"));
    console.error(`panel ${panel.name} in force`);
    return 0;
  }
  if (sub !== "set" && sub !== "save") fail("panel: give show, set, save, compare or adopt");
  const parsed = positionals.map(parseMember);
  const bad = parsed.find((p) => "error" in p);
  if (bad && "error" in bad) fail(`panel ${sub}: ${bad.error}`);
  if (!parsed.length) fail(`panel ${sub}: name the panel's judges (JUDGE or JUDGE@vN)`);
  const panel = await savePanel(null, parsed as PanelMember[], { name: values.name, adopt: sub === "set" }).catch(
    failWith(fail, sub),
  );
  const judges = panel.judges.map(memberText);
  console.error(`panel ${panel.name} ${sub === "set" ? "in force" : "saved"}: ${judges.join(" ")}`);
  return 0;
}

async function show(format: string | undefined, fail: Fail): Promise<number> {
  const panels = (await panelsJson()) as { in_force: PanelJson | null; earlier: PanelJson[]; candidates: PanelJson[] };
  if (format === "json") await writeOut(`${JSON.stringify(panels, null, 2)}\n`);
  else if (format !== undefined) fail(`panel show: --format takes json, not "${format}"`);
  else
    for (const [p, state] of [
      ...(panels.in_force ? [[panels.in_force, "in force"] as const] : []),
      ...panels.earlier.map((p) => [p, "earlier"] as const),
      ...panels.candidates.map((p) => [p, "candidate"] as const),
    ])
      console.log([p.name, state, p.judges.map(jsonMember).join(" ")].join("\t"));
  return 0;
}

async function compare(positionals: string[], values: { format?: string; with?: string }, fail: Fail): Promise<number> {
  if (positionals.length !== 1) fail("panel compare: name one panel (panel show lists them)");
  const format = values.format ?? "json";
  if (format !== "json" && format !== "csv") fail(`panel compare: --format takes json or csv, not "${format}"`);
  const view = await comparePanelsNamed(positionals[0]!, values.with).catch(failWith(fail, "compare"));
  await writeOut(
    format === "csv"
      ? tableCsv(panelComparisonTable(view.comparison, { panel: view.candidate.name, with: view.against.name }))
      : `${JSON.stringify(panelComparisonJson(view), null, 2)}\n`,
  );
  return 0;
}
