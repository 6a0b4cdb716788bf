// npm run cli -- rules list|add|test|disable|enable: suspect-step rules (docs/formats.md, "Rules").

import { parseArgs } from "node:util";
import { underPanel } from "@/lib/data/panel-set";
import { ruleHitsCoverage } from "@/lib/data/rule-matches";
import { ruleToTest, testedHead, testRule } from "@/lib/data/rule-test";
import { setRuleEnabled, writeRule } from "@/lib/data/rules";
import { ruleTestText } from "@/lib/domain/rule-test";
import { ruleRecord } from "@/lib/domain/rules";
import { parseTrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { ruleFigures } from "@/lib/work/rule-figures";
import { scanRuleHits } from "@/lib/work/rule-scan/scan";
import { writeOut } from "./output";

export const RULES_HELP = `  rules list [--format json]           the rules in force and the trajectories each fires on
  rules add NAME --category C --on command|output|reasoning --pattern REGEX [--ignore-case] [--why TEXT]
                                       write a new version of rule NAME (a new rule, or a change); the pattern is a
                                       PostgreSQL regular expression
  rules test (NAME | --pattern REGEX --on F --category C [--ignore-case]) --format json|csv
        [--benchmark B --model M --network on|off --prompt P --run N --task T] [--panel NAME]
                                       what the rule finds: per condition, and against the panel and the gold labels
  rules disable NAME, rules enable NAME
                                       a new version of the rule with enabled changed`;

type Fail = (message: string) => never;
const FILTERS = ["benchmark", "model", "network", "prompt", "run", "task", "evidence"] as const;
const failWith = (fail: Fail, what: string) => (e: unknown) =>
  fail(`rules ${what}: ${e instanceof Error ? e.message : String(e)}`);

export async function rulesCommand(args: string[], fail: Fail): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      format: { type: "string" },
      category: { type: "string" },
      on: { type: "string" },
      pattern: { type: "string" },
      "ignore-case": { type: "boolean" },
      why: { type: "string" },
      panel: { type: "string" },
      ...Object.fromEntries(FILTERS.map((k) => [k, { type: "string" as const }])),
    },
  });
  if (sub === "list") return list(values.format, fail);
  if (sub === "test") return test(positionals, values as Record<string, string | boolean | undefined>, fail);
  if (sub === "disable" || sub === "enable") {
    if (positionals.length !== 1) fail(`rules ${sub}: name one rule (rules list shows them)`);
    const rule = await setRuleEnabled(null, positionals[0]!, sub === "enable").catch(failWith(fail, sub));
    console.error(`${rule.name} ${rule.enabled ? "enabled" : "disabled"}`);
    return 0;
  }
  if (sub !== "add") fail("rules: give list, add, test, disable or enable");
  if (positionals.length !== 1) fail("rules add: name the rule");
  const rule = await writeRule(null, {
    name: positionals[0],
    category: values.category,
    on: values.on,
    pattern: values.pattern,
    ignore_case: values["ignore-case"] ?? false,
    why: values.why ?? "",
  }).catch(failWith(fail, "add"));
  console.error(`${rule.name}: a new version in force (${rule.category}, on ${rule.on})`);
  return 0;
}

async function list(format: string | undefined, fail: Fail): Promise<number> {
  if (format !== undefined && format !== "json") fail(`rules list: --format takes json, not "${format}"`);
  // The rules' hits not yet kept (a rule written, trajectories imported) are read first, to the end.
  const behind = await ruleHitsCoverage();
  if (behind.unscanned) {
    console.error(`rules: reading ${behind.unscanned} of ${behind.trajectories} trajectories not yet scanned`);
    await scanRuleHits();
  }
  // Each rule as its record (without its type), with the trajectories and steps it hits and its cells.
  const rows = (await ruleFigures()).map(({ rule, report }) => {
    const { type: _, ...record } = ruleRecord(rule);
    const sum = (k: "trajectories_hit" | "steps_hit") => report.conditions.reduce((n, c) => n + c[k], 0);
    return {
      ...(record as { name: string; category: string; on: string; enabled: boolean }),
      trajectories: sum("trajectories_hit"),
      steps_hit: sum("steps_hit"),
      versus_panel: report.versus_panel,
      versus_gold: report.versus_gold,
    };
  });
  if (format === "json") await writeOut(`${JSON.stringify(rows, null, 2)}\n`);
  else
    for (const r of rows)
      console.log(
        [
          r.name,
          r.category,
          r.on,
          r.enabled ? "enabled" : "disabled",
          `${r.trajectories} fired`,
          `${r.steps_hit} steps`,
        ]
          .concat(r.versus_panel.kappa === null ? [] : [`κ ${r.versus_panel.kappa.toFixed(2)} vs panel`])
          .join("\t"),
      );
  return 0;
}

async function test(positionals: string[], values: Record<string, string | boolean | undefined>, fail: Fail) {
  const format = values.format ?? "json";
  if (format !== "json" && format !== "csv") fail(`rules test: --format takes json or csv, not "${format}"`);
  const rule = await ruleToTest({
    name: positionals[0],
    category: values.category,
    on: values.on,
    pattern: values.pattern,
    ignoreCase: values["ignore-case"] === true,
  }).catch(failWith(fail, "test"));
  const filter = parseTrajectoryFilter(
    Object.fromEntries(FILTERS.flatMap((k) => (typeof values[k] === "string" ? [[k, values[k]]] : []))),
  );
  const run = () => testRule(rule, filter);
  const panel = typeof values.panel === "string" ? values.panel : undefined;
  const result = await (panel ? underPanel(panel, run) : run()).catch(failWith(fail, "test"));
  console.error(`scanned in ${(result.ms / 1000).toFixed(1)} s`);
  await writeOut(ruleTestText(testedHead(result.rule), result.report, format));
  return 0;
}
