// npm run cli -- <command>   (see `npm run cli -- help`)
// Data goes to standard output; progress, logs and warnings to standard error.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { config } from "@/lib/config";
import { getAgreement, scopeOf, studyNames } from "@/lib/data/agreement";
import type { WriteCounts } from "@/lib/data/import/context";
import { sweepInterruptedImports } from "@/lib/data/import/interrupted";
import { judgeConcurrency } from "@/lib/data/judge-requests";
import { cancelRun } from "@/lib/data/judge-runs";
import { currentPrompt, defineJudge, JudgeDefinitionSchema, listJudges } from "@/lib/data/judges";
import { underPanel } from "@/lib/data/panel-set";
import { createPerson, listPeople, PersonSchema, setPassword } from "@/lib/data/people";
import { getResults } from "@/lib/data/results";
import { rebuildSearchDocuments } from "@/lib/data/search-documents";
import { closeCurrentDb, currentDb, DatabaseBusyError, describeTarget } from "@/lib/db/connect";
import { formatBytes, issuesText, writtenText } from "@/lib/domain/format";
import { IdParam } from "@/lib/domain/params";
import { parseTrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { warningText } from "@/lib/formats/audit";
import { type Condition, ConditionFieldsSchema } from "@/lib/formats/condition";
import { evidenceText } from "@/lib/work/evidence-report";
import { EXPORTS } from "@/lib/work/export";
import {
  conditionFor,
  expandPaths,
  type FileImport,
  importFile,
  loadManifest,
  loadResolved,
} from "@/lib/work/import/files";
import { ImportInterrupted } from "@/lib/work/import/records";
import { enqueue, openQueue } from "@/lib/work/judge-runs/queue";
import { followRun, startRun } from "@/lib/work/judge-runs/runs";
import { workJudges } from "@/lib/work/judge-runs/worker";
import { isReportFormat, REPORT_FORMATS, REPORTS, type ReportName, tableChoice } from "@/lib/work/reports/formats";
import { scanRuleHits } from "@/lib/work/rule-scan/scan";
import { rebuildTallies } from "@/lib/work/tally-folds";
import { PANEL_HELP, panelCommand } from "./cli-panel";
import { failedImport, pushFile } from "./cli-push";
import { RULES_HELP, rulesCommand } from "./cli-rules";
import { TOKEN_HELP, tokenCommand } from "./cli-token";
import { endQuietlyWhenTheReaderLeaves, exitWhenFlushed, writeOut } from "./output";
import { ProgressBar } from "./progress";

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
  export trajectories|votes|labels|gold|rules|all
                                       print records as JSONL (the app's own format)
  results --format json|csv|latex [--table NAME] [--panel NAME]
                                       print the result table (docs/protocol.md §3); --table: changes (paired,
                                       vanilla → principled), evidence, rules, categories, judges, unparseable, or
                                       (LaTeX, JSON) all; JSON without --table holds every figure
  agreement --format json|csv|latex [--study NAME] [--first-forms] [--panel NAME]
                                       print human-vs-judge agreement (docs/protocol.md §4); with a study, its labels
                                       on its items only; --first-forms: labels revised after unblinding count in
                                       their blind first form
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

/** The condition options, read by the same schema as the Import page's form. */
function conditionOptions(v: Record<string, unknown>): Condition {
  const parsed = ConditionFieldsSchema.safeParse(v);
  if (!parsed.success) fail(issuesText(parsed.error.issues, "--", "\n"));
  return parsed.data;
}

async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      benchmark: { type: "string" },
      model: { type: "string" },
      network: { type: "string" },
      prompt: { type: "string" },
      run: { type: "string" },
      task: { type: "string" },
      manifest: { type: "string" },
      resolved: { type: "string", multiple: true },
      strict: { type: "boolean" },
      server: { type: "string" },
    },
  });
  if (!positionals.length) fail("import: name at least one file or folder");
  const options = conditionOptions(values);
  const resolvedFiles = values.resolved ?? [];
  const manifest = values.manifest ? loadManifest(values.manifest) : [];
  const resolved = loadResolved(resolvedFiles);
  const files = expandPaths(
    positionals,
    new Set([...resolvedFiles, ...(values.manifest ? [values.manifest] : [])].map((f) => path.resolve(f))),
  );
  if (!files.length) fail("import: no .jsonl, .json, .traj or .eval files there");

  const server = values.server;
  const token = process.env.SHORTCUT_AUDIT_TOKEN;
  if (server) {
    if (!token) fail("import --server: set SHORTCUT_AUDIT_TOKEN to a token with the import scope (docs/api.md)");
    if (resolvedFiles.length)
      fail("import --server: --resolved reports are not sent to a server; give resolved in the records");
  } else await rebuildSearchDocuments((line) => console.error(line));
  const bar = new ProgressBar(process.stderr, files);
  const results: FileImport[] = [];
  const started = performance.now();
  for (const file of files) {
    const own = conditionFor(file, options, manifest);
    bar.start(file);
    const result = server
      ? await pushFile(server, token!, file, own.condition, values.strict ?? false, bar)
      : await importLocal(file, own.condition, own.resolved ?? resolved, values.strict ?? false, bar);
    bar.finish(result.bytes);
    results.push(result);
    const read = result.assistantTurns
      ? `; read ${result.assistantTurns} assistant turns, ${result.toolCalls} tool calls` +
        (result.warningCount ? `, ${result.warningCount} warning(s)` : "")
      : "";
    const summary = result.ok
      ? `${writtenText(result.counts)}${read}`
      : `REJECTED: ${result.errorCount} bad record(s), nothing imported${read}`;
    console.error(
      `${result.ok ? "ok  " : "FAIL"} ${file}: ${summary} (${formatBytes(result.bytes)}, ` +
        `${result.seconds.toFixed(1)} s)`,
    );
  }
  printSummary(results, (performance.now() - started) / 1000);
  return results.every((r) => r.ok) ? 0 : 1;
}

/** Imports one file into the database; the database gone mid-file is this file's failure (later files say so too). */
async function importLocal(
  file: string,
  condition: Parameters<typeof importFile>[1]["condition"],
  resolved: Parameters<typeof importFile>[1]["resolved"],
  strict: boolean,
  bar: ProgressBar,
): Promise<FileImport> {
  try {
    return await importFile(file, {
      condition,
      resolved,
      source: "cli",
      byName: os.userInfo().username,
      strict,
      onProgress: (p) => bar.update(p.bytes, p.records),
    });
  } catch (e) {
    if (!(e instanceof ImportInterrupted)) throw e;
    return failedImport(file, fs.statSync(file).size, e.message);
  }
}

function printSummary(results: FileImport[], seconds: number): void {
  const ok = results.filter((r) => r.ok);
  const sum = (k: keyof WriteCounts) => ok.reduce((n, r) => n + (r.ok ? r.counts[k] : 0), 0);
  const bytes = results.reduce((n, r) => n + r.bytes, 0);
  const rejected = results.filter((r) => !r.ok);
  console.error("");
  console.error(
    `imported ${ok.length} of ${results.length} file(s) in ${seconds.toFixed(1)} s (${formatBytes(bytes)}, ` +
      `${formatBytes(bytes / Math.max(seconds, 1e-3))}/s)`,
  );
  console.error(
    `  trajectories: ${sum("trajectories")} (${sum("replaced")} replaced, ${sum("unchanged")} unchanged)   ` +
      `judge votes: ${sum("votes")} ` +
      `(${sum("unparseable")} unparseable)   labels: ${sum("labels")}   gold labels: ${sum("gold")}   ` +
      `task records: ${sum("taskRecords")}`,
  );
  console.error(
    `  rejected: ${rejected.length} file(s), ${rejected.reduce((n, r) => n + (r.ok ? 0 : r.errorCount), 0)} bad ` +
      `record(s)`,
  );
  const where = (r: FileImport, line: number) =>
    `  ${r.file}${line > 0 ? `:${r.unit === "line" ? "" : "record "}${line}` : ""}: `;
  for (const r of rejected) {
    if (r.ok) continue;
    for (const e of r.errors) console.error(`${where(r, e.line)}${e.field ? `${e.field}: ` : ""}${e.message}`);
    if (r.errorCount > r.errors.length) console.error(`  ${r.file}: … and ${r.errorCount - r.errors.length} more`);
  }
  const warned = results.filter((r) => r.warningCount > 0);
  if (!warned.length) return;
  console.error(
    `  warnings: ${warned.reduce((n, r) => n + r.warningCount, 0)} in ${warned.length} file(s) ` +
      "(they do not stop an import; with --strict they are errors)",
  );
  for (const r of warned) {
    for (const w of r.warnings) console.error(`${where(r, w.line)}warning: ${warningText(w)}`);
    if (r.warningCount > r.warnings.length)
      console.error(`  ${r.file}: … and ${r.warningCount - r.warnings.length} more`);
  }
}

async function exportCommand(args: string[]): Promise<number> {
  const what = args[0] as keyof typeof EXPORTS | undefined;
  if (!what || !(what in EXPORTS)) fail(`export: say what: ${Object.keys(EXPORTS).join(", ")}`);
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
          ? { study: { type: "string" }, "first-forms": { type: "boolean" } }
          : { table: { type: "string" } }),
      },
    });
    if (!isReportFormat(values.format))
      fail(`${name}: --format takes ${Object.keys(REPORT_FORMATS).join(", ")}, not "${values.format}"`);
    const table = name === "results" ? tableChoice((values as { table?: string }).table, values.format) : {};
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

/**
 * judge run NAME... [filters]: plans the run (what it will ask, an estimate), queues it, works it in
 * this process with each judge's concurrency, and prints progress, rate and cost until it is done.
 */
async function judgeRun(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: Object.fromEntries(
      ["benchmark", "model", "network", "prompt", "run", "task", "panel", "evidence"].map((k) => [
        k,
        { type: "string" },
      ]),
    ) as Record<string, { type: "string" }>,
  });
  if (!positionals.length) fail("judge run: name at least one judge");
  const filter = parseTrajectoryFilter(values as Record<string, string>);
  const judges = await judgeConcurrency({ names: positionals });
  const boss = await openQueue();
  let stopWorkers: (() => Promise<void>) | null = null;
  try {
    const plan = await startRun(positionals, filter, os.userInfo().username, (requests) => enqueue(boss, requests));
    console.error(
      `run ${plan.runId}: ${plan.requests.length} request(s) under prompt version ${plan.promptVersion} ` +
        `(${plan.answeredBefore} answered before); about ${plan.estimate.tokensIn.toLocaleString("en-US")} input ` +
        `tokens${plan.estimate.cost === null ? "" : `, about $${plan.estimate.cost.toFixed(2)}`}`,
    );
    stopWorkers = await workJudges(boss, judges);
    const started = performance.now();
    const { status, progress } = await followRun(plan.runId, (p) => {
      const seconds = (performance.now() - started) / 1000;
      const answered = p.done + p.failed + p.stale;
      console.error(
        `  ${answered}/${answered + p.pending + p.asking} asked, ${p.failed} failed, ${p.stale} stale, ` +
          `${(answered / Math.max(seconds, 0.001)).toFixed(1)}/s, ${p.tokensIn + p.tokensOut} tokens, ` +
          (p.cost === null ? "no prices" : `$${p.cost.toFixed(4)}`),
      );
    });
    for (const e of progress.errors) console.error(`  failed: ${e}`);
    if (progress.stale)
      console.error(
        `  stale: ${progress.stale} request(s) not asked: their trajectories were imported again with other ` +
          "content after the run was planned (run it again to ask them about what is stored now)",
      );
    if (status !== "DONE") console.error(`run ${plan.runId} was ${status.toLowerCase()} meanwhile`);
    return progress.failed || progress.stale || status !== "DONE" ? 1 : 0;
  } finally {
    await stopWorkers?.();
    await boss.stop({ graceful: false, wait: true });
  }
}

/**
 * judge work: a worker for runs started elsewhere (another machine, the app), sharing them through
 * the database until interrupted; each judge's limits hold across all workers.
 */
async function judgeWork(): Promise<number> {
  const judges = await judgeConcurrency("with-endpoint");
  if (!judges.length) fail("judge work: no judge has an endpoint (judge add defines one)");
  const boss = await openQueue();
  const stop = await workJudges(boss, judges);
  console.error(
    `working the queues of ${judges.map((j) => j.name).join(", ")}; Ctrl-C stops after the requests in flight`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await stop();
  await boss.stop({ graceful: false, wait: true });
  return 0;
}

/** judge cancel RUN: a run stops; what it asked is kept, what it had not asked is not asked. */
async function judgeCancel(args: string[]): Promise<number> {
  const id = IdParam.safeParse(args[0]);
  if (args.length !== 1 || !id.success) fail("judge cancel: give one run's number (the Judges page lists them)");
  const run = await cancelRun(id.data);
  if (run === null) fail(`judge cancel: no run ${id.data}`);
  console.error(run.cancelled ? `run ${id.data} cancelled` : `run ${id.data} was ${run.status.toLowerCase()} already`);
  return 0;
}

/** judge add | judge list: judges the app asks itself. */
async function judgeCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "list") {
    const prompt = await currentPrompt();
    console.error(`judge prompt in force: version ${prompt.version}`);
    for (const j of await listJudges())
      console.log(
        [
          j.name,
          j.endpoint ? `${j.model} at ${j.endpoint}` : "imported votes only",
          j.apiKeyEnv ? `key in $${j.apiKeyEnv}` : "no key",
          `concurrency ${j.concurrency}`,
          `${j.votes} answers`,
          `${j.unparseable} unparseable`,
        ].join("\t"),
      );
    return 0;
  }
  if (sub === "run") return judgeRun(rest);
  if (sub === "cancel") return judgeCancel(rest);
  if (sub === "work") return judgeWork();
  if (sub !== "add") fail("judge: give add, run, work, cancel or list");
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      "base-url": { type: "string" },
      model: { type: "string" },
      "api-key-env": { type: "string" },
      concurrency: { type: "string" },
      rpm: { type: "string" },
      temperature: { type: "string" },
      "max-tokens": { type: "string" },
      "context-tokens": { type: "string" },
      "price-in": { type: "string" },
      "price-out": { type: "string" },
    },
  });
  const parsed = JudgeDefinitionSchema.safeParse({
    name: positionals[0],
    baseUrl: values["base-url"],
    model: values.model,
    apiKeyEnv: values["api-key-env"],
    concurrency: values.concurrency,
    requestsPerMinute: values.rpm,
    temperature: values.temperature,
    maxTokens: values["max-tokens"],
    contextTokens: values["context-tokens"],
    priceInPerMillion: values["price-in"],
    priceOutPerMillion: values["price-out"],
  });
  if (!parsed.success) fail(`judge add: ${issuesText(parsed.error.issues, "", "; ")}`);
  const { created } = await defineJudge(parsed.data);
  console.error(
    `judge ${parsed.data.name} ${created ? "added" : "updated"}: ${parsed.data.model} at ${parsed.data.baseUrl}`,
  );
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
    import: importCommand,
    export: exportCommand,
    results: reportCommand("results"),
    agreement: reportCommand("agreement"),
    evidence: evidenceCommand,
    judge: judgeCommand,
    panel: (args) => panelCommand(args, fail),
    rules: (args) => rulesCommand(args, fail),
    token: (args) => tokenCommand(args, fail),
    tallies: talliesCommand,
    user: userCommand,
  };
  const run = commands[command];
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
