// npm run cli -- import: files (folders recursively) into the database, or to a server's HTTP API
// (--server); each file lands whole or not at all, its progress on standard error.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { WriteCounts } from "@/lib/data/import/context";
import { rebuildSearchDocuments } from "@/lib/data/search-documents";
import { formatBytes, issuesText, writtenText } from "@/lib/domain/format";
import { warningText } from "@/lib/formats/audit";
import { type Condition, ConditionFieldsSchema } from "@/lib/formats/condition";
import {
  conditionFor,
  expandPaths,
  type FileImport,
  importFile,
  loadManifest,
  loadResolved,
} from "@/lib/work/import/files";
import { ImportInterrupted } from "@/lib/work/import/records";
import { failedImport, pushFile } from "./cli-push";
import { ProgressBar } from "./progress";

type Fail = (message: string) => never;

/** The condition options, read by the same schema as the Import page's form. */
function conditionOptions(v: Record<string, unknown>, fail: Fail): Condition {
  const parsed = ConditionFieldsSchema.safeParse(v);
  if (!parsed.success) fail(issuesText(parsed.error.issues, "--", "\n"));
  return parsed.data;
}

export async function importCommand(args: string[], fail: Fail): Promise<number> {
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
  const options = conditionOptions(values, fail);
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
