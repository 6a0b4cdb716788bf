// npm run cli -- <command>   (see `npm run cli -- help`)
// Data goes to standard output; progress, logs and warnings to standard error.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { config } from "@/lib/config";
import { getAgreement, scopeOf, studyNames } from "@/lib/data/agreement";
import { sweepInterruptedImports } from "@/lib/data/import/interrupted";
import { underPanel } from "@/lib/data/panel-set";
import { createPerson, listPeople, PersonSchema, setPassword } from "@/lib/data/people";
import { getResults } from "@/lib/data/results";
import { rebuildTallies } from "@/lib/data/tallies";
import { closeCurrentDb, currentDb, DatabaseBusyError, describeTarget } from "@/lib/db/connect";
import { issuesText } from "@/lib/domain/format";
import { evidenceText } from "@/lib/work/evidence-report";
import { EXPORTS } from "@/lib/work/export";
import {
  agreementTableChoice,
  isReportFormat,
  REPORT_FORMATS,
  REPORTS,
  type ReportName,
  tableChoice,
} from "@/lib/work/reports/formats";
import { scanRuleHits } from "@/lib/work/rule-scan/scan";
import { CATEGORIES_HELP, categoriesCommand } from "./cli-categories";
import { importCommand } from "./cli-import";
import { judgeCommand } from "./cli-judges";
import { PANEL_HELP, panelCommand } from "./cli-panel";
import { reportCommand as bundleCommand, REPORT_HELP } from "./cli-report";
import { RULES_HELP, rulesCommand } from "./cli-rules";
import { TOKEN_HELP, tokenCommand } from "./cli-token";
import { endQuietlyWhenTheReaderLeaves, exitWhenFlushed, writeOut } from "./output";

const HELP = `Shortcut Audit command line

  import [options] FILE_OR_FOLDER...   import files (folders recursively); each file lands whole or not at all
      --benchmark B --model M --network on|off --prompt vanilla|principled --run N [--task ID]
                                       the condition, for agent-harness files (they do not say it)
      --manifest FILE                  conditions per path instead: a JSON list of
                                       {"path", "benchmark", "model", "network", "prompt", "run", "resolved"?}
      --resolved FILE                  resolved status from a SWE-bench report.json or a results.json (repeatable)
      --strict                         reject a file that has any warning (an assistant turn whose text looks like
                                       an action but gave no tool call, a trajectory given twice)
      --server URL                     send each file to that server's HTTP API instead of a database (the token
                                       in SHORTCUT_AUDIT_TOKEN, scope import; docs/api.md)
  export trajectories|votes|labels|gold|rules|categories|all
                                       print records as JSONL (the app's own format)
  results --format json|csv|latex [--table NAME] [--panel NAME]
                                       print the result table (docs/protocol.md §3); --table: changes (paired,
                                       vanilla → principled), network (paired, on → off), evidence, rules,
                                       categories, judges, unparseable, or (LaTeX, JSON) all; JSON without --table
                                       holds every figure
  agreement --format json|csv|latex [--study NAME] [--first-forms] [--panel NAME] [--table monitors]
                                       print human-vs-judge agreement (docs/protocol.md §4); with a study, its labels
                                       on its items only; --first-forms: labels revised after unblinding count in
                                       their blind first form; --table monitors: every judge, panel and rule as a
                                       monitor against gold (AUROC, caught at 5% false alarms; protocol.md §7)
  evidence --format json|csv [--panel NAME]
                                       print what task records show against each trajectory (docs/formats.md)
      --panel NAME                     (results, agreement, evidence) the same figures under another saved panel:
                                       a candidate, or an earlier one (nothing is changed)
  judge add NAME --base-url URL --model MODEL [--api-key-env VAR] [--concurrency N] [--rpm N]
        [--temperature T] [--max-tokens N] [--context-tokens N] [--price-in USD --price-out USD]
                                       define a judge the app asks (any OpenAI-compatible endpoint; the key is read
                                       from $VAR when asked, never stored)
  judge run NAME... [--benchmark B --model M --network on|off --prompt P --run N --task T]
                                       ask each judge about every matching trajectory it has no answer for under the
                                       prompt version in force; a killed run, started again, asks what is left
  judge work                           work runs started elsewhere, sharing them through the database
  judge cancel RUN                     stop a run: what it asked is kept, what it had not asked is not asked
  judge list                           judges, their endpoints, answers and unparseable answers
${PANEL_HELP}
${RULES_HELP}
${CATEGORIES_HELP}
${REPORT_HELP}
${TOKEN_HELP}
  tallies rebuild                      recompute the running tallies the result table and the agreement read, from
                                       the rows (after restoring a database from a dump), and say whether they had
                                       drifted
  user add --handle H --email E --role researcher|annotator|reviewer [--name N]
                                       create an account that signs in (or give a login to an imported annotator);
                                       the password is read from SHORTCUT_AUDIT_PASSWORD or the first line of
                                       standard input
  user password --handle H             set a person's password (read as for user add) and end their sessions
  user list                            print people, roles and whether they can sign in

Exit status: 0 on success, 1 when any file was rejected or the command failed.`;

/** A command that cannot go on: its message is printed and the status is 1, once the output is written out. */
class CommandFailed extends Error {}

function fail(message: string): never {
  throw new CommandFailed(message);
}

async function exportCommand(args: string[]): Promise<number> {
  const what = args[0] as keyof typeof EXPORTS | undefined;
  if (!what || !Object.hasOwn(EXPORTS, what)) fail(`export: say what: ${Object.keys(EXPORTS).join(", ")}`);
  let n = 0;
  for (const source of EXPORTS[what]) {
    for await (const record of source()) {
      n += 1;
      await writeOut(`${JSON.stringify(record)}\n`);
    }
  }
  console.error(`exported ${n} record(s)`);
  return 0;
}

/** results / agreement --format json|csv|latex: a report on standard output. */
const reportCommand =
  (name: ReportName) =>
  async (args: string[]): Promise<number> => {
    const { values } = parseArgs({
      args,
      options: {
        format: { type: "string", default: "json" },
        panel: { type: "string" },
        ...(name === "agreement"
          ? { study: { type: "string" }, "first-forms": { type: "boolean" }, table: { type: "string" } }
          : { table: { type: "string" } }),
      },
    });
    if (!isReportFormat(values.format))
      fail(`${name}: --format takes ${Object.keys(REPORT_FORMATS).join(", ")}, not "${values.format}"`);
    const chosen = (values as { table?: string }).table;
    const table = name === "results" ? tableChoice(chosen, values.format) : agreementTableChoice(chosen);
    if ("error" in table) fail(`${name}: ${table.error}`);
    const { study: studyName, "first-forms": firstForms } = values as { study?: string; "first-forms"?: boolean };
    const scope = await scopeOf(studyName, firstForms ?? false);
    if (!scope) fail(`${name}: no study named "${studyName}" (the Studies page lists them)`);
    const format = values.format;
    await writeOut(await onPanel(values.panel, () => REPORTS[name](format, { ...scope, ...table })));
    return 0;
  };

/** What `compute` gives under the panel named (`--panel`), or under the panel in force. */
function onPanel<T>(panel: string | undefined, compute: () => Promise<T>): Promise<T> {
  if (panel === undefined) return compute();
  return underPanel(panel, compute).catch((e: unknown) =>
    fail(`--panel: ${e instanceof Error ? e.message : String(e)}`),
  );
}

/** evidence --format json|csv: what the task records show against each trajectory. */
async function evidenceCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { format: { type: "string", default: "json" }, panel: { type: "string" } },
  });
  const format = values.format;
  if (format !== "json" && format !== "csv") fail(`evidence: --format takes json or csv, not "${format}"`);
  // The items' categories come from the rules' kept hits: the scan reads what it has not first.
  await scanRuleHits();
  await writeOut(await onPanel(values.panel, () => evidenceText(format, 0)));
  return 0;
}

/** user add | user list: accounts, for a database without the demo study (or a first researcher). */
async function userCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "list") {
    for (const p of await listPeople())
      console.log(
        [
          p.handle,
          p.role.toLowerCase(),
          p.email ?? "-",
          p.canSignIn ? "signs in" : "no login",
          `${p.labels} labels`,
        ].join("\t"),
      );
    return 0;
  }
  if (sub !== "add" && sub !== "password") fail("user: give add, password or list");
  const { values } = parseArgs({
    args: rest,
    options: {
      handle: { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
    },
  });
  const password = config().SHORTCUT_AUDIT_PASSWORD ?? fs.readFileSync(0, "utf8").split("\n")[0]!;
  if (sub === "password") {
    const person = (await listPeople()).find((p) => p.handle.toLowerCase() === values.handle?.toLowerCase());
    if (!person) fail(`user password: no person with the handle ${values.handle ?? "(give --handle)"}`);
    await setPassword("system", person.id, password);
    console.error(`${person.handle}: password set, sessions ended`);
    return 0;
  }
  const parsed = PersonSchema.safeParse({ ...values, role: values.role?.toUpperCase(), password });
  if (!parsed.success) fail(issuesText(parsed.error.issues, "--", "\n"));
  const person = await createPerson("system", parsed.data);
  console.error(`${person.handle} (${person.role.toLowerCase()}) signs in as ${person.email}`);
  return 0;
}

/** Every figure the tallies give: the result table, and the agreement in every scope. */
async function talliedFigures(): Promise<string> {
  const names = [null, ...(await studyNames())];
  const scopes = await Promise.all(names.flatMap((name) => [false, true].map((first) => scopeOf(name, first))));
  return JSON.stringify([await getResults(), ...(await Promise.all(scopes.map((s) => getAgreement(s ?? {}))))]);
}

async function talliesCommand(args: string[]): Promise<number> {
  if (args.join(" ") !== "rebuild") fail("tallies: give rebuild");
  const before = await talliedFigures();
  const started = performance.now();
  await rebuildTallies();
  const same = (await talliedFigures()) === before;
  console.error(
    `tallies rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      (same
        ? "the result table and the agreement are unchanged"
        : "the figures had drifted from the rows and are now right"),
  );
  return 0;
}

/**
 * Pending migrations, applied by a process of their own before this one opens the database: the
 * schema engine's wasm memory (over 100 MB) is never given back, and an import's memory is
 * measured against what the process already holds.
 */
function migrateApart(): void {
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "migrate.ts"), "deploy"],
    { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] },
  );
  if (child.status !== 0) fail(child.stderr.trim() || "the database could not be migrated");
}

async function main(): Promise<number> {
  config(); // a bad setting stops here, naming the variable
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === "help" || command === "--help") {
    console.log(HELP);
    return command ? 0 : 1;
  }
  const commands: Record<string, (a: string[]) => Promise<number>> = {
    import: (args) => importCommand(args, fail),
    export: exportCommand,
    results: reportCommand("results"),
    agreement: reportCommand("agreement"),
    evidence: evidenceCommand,
    judge: (args) => judgeCommand(args, fail),
    panel: (args) => panelCommand(args, fail),
    rules: (args) => rulesCommand(args, fail),
    report: (args) => bundleCommand(args, fail),
    categories: (args) => categoriesCommand(args, fail),
    token: (args) => tokenCommand(args, fail),
    tallies: talliesCommand,
    user: userCommand,
  };
  const run = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!run) fail(`unknown command "${command}"\n\n${HELP}`);
  // Pushing to a server needs no database here.
  if (command === "import" && rest.some((a) => a === "--server" || a.startsWith("--server="))) return run(rest);
  migrateApart();
  const handle = currentDb();
  console.error(`database: ${describeTarget(handle.target)}`);
  const interrupted = await sweepInterruptedImports();
  if (interrupted.length)
    console.error(`import(s) ${interrupted.join(", ")} marked interrupted: their process had stopped`);
  return run(rest);
}

endQuietlyWhenTheReaderLeaves();
let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(
    e instanceof DatabaseBusyError || e instanceof CommandFailed
      ? e.message
      : `error: ${e instanceof Error ? e.message : String(e)}`,
  );
} finally {
  await closeCurrentDb().catch(() => {});
}
await exitWhenFlushed(code);
