import "server-only";
// Importing files from disk for the command line and the Import page, one all-or-nothing import per file.

import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { formatBytes } from "@/lib/domain/format";
import type { Condition } from "@/lib/formats/condition";
import { readLimits } from "@/lib/formats/limits";
import { fileShape, readRecords } from "@/lib/formats/read-records";
import { combineLookups, type ResolvedLookup, resolvedLookup } from "@/lib/formats/resolved";
import { weightProblem } from "@/lib/formats/weight";
import { type ImportOutcome, type ImportSource, runImport, safely } from "@/lib/work/import/records";

const IMPORTABLE = /\.(jsonl|json|traj)(\.gz)?$|\.eval$/i;

/** The files a list of paths names: files as given, folders walked recursively, in a stable order. */
export function expandPaths(paths: readonly string[], exclude: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const walk = (p: string, explicit: boolean) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name), false);
    } else if ((explicit || IMPORTABLE.test(p)) && !exclude.has(path.resolve(p))) {
      out.push(p);
    }
  };
  for (const p of paths) walk(p, true);
  return out;
}

const ConditionSchema = z.object({
  benchmark: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  network: z.boolean().optional(),
  prompt: z.enum(["vanilla", "principled"]).optional(),
  run: z.number().int().min(1).optional(),
  task: z.string().min(1).optional(),
});

const ManifestSchema = z.array(
  ConditionSchema.extend({ path: z.string().min(1), resolved: z.union([z.string(), z.array(z.string())]).optional() }),
);

export type ManifestEntry = { path: string; condition: Condition; resolved: ResolvedLookup | null };

export function readJsonFile(file: string): unknown {
  // Read whole, so held to the record limit like any record (a `resolved` report, a manifest).
  const max = readLimits().maxRecordBytes;
  const size = fs.statSync(file).size;
  if (size > max)
    throw new Error(
      `${file}: ${formatBytes(size)} is over the record limit of ${formatBytes(max)} (IMPORT_MAX_RECORD_BYTES), ` +
        "which a resolved report or manifest is read within",
    );
  const text = fs.readFileSync(file, "utf8");
  const heavy = weightProblem(text, max);
  if (heavy) throw new Error(`${file}: too heavy to read (a resolved report or manifest is read whole): ${heavy}`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export function loadResolved(files: readonly string[]): ResolvedLookup | null {
  return files.length ? combineLookups(files.map((f) => resolvedLookup(readJsonFile(f), f))) : null;
}

/** A manifest: [{path, benchmark, model, network, prompt, run, task?, resolved?}], the longest path winning. */
export function loadManifest(file: string): ManifestEntry[] {
  const parsed = ManifestSchema.safeParse(readJsonFile(file));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 1 ? `.${issue.path.slice(1).join(".")}` : "";
    throw new Error(`${file}: entry ${String(issue.path[0] ?? "?")}${field}: ${issue.message}`);
  }
  const base = path.dirname(path.resolve(file));
  return parsed.data.map(({ path: p, resolved, ...condition }) => ({
    path: path.resolve(base, p),
    condition,
    resolved: loadResolved(
      (typeof resolved === "string" ? [resolved] : (resolved ?? [])).map((r) => path.resolve(base, r)),
    ),
  }));
}

/** The condition of a file: the manifest entry over it (longest path), then command-line options. */
export function conditionFor(
  file: string,
  options: Condition,
  manifest: readonly ManifestEntry[],
): { condition: Condition; resolved: ResolvedLookup | null } {
  const abs = path.resolve(file);
  const entry = manifest
    .filter((e) => abs === e.path || abs.startsWith(e.path.endsWith(path.sep) ? e.path : e.path + path.sep))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return { condition: { ...entry?.condition, ...stripUndefined(options) }, resolved: entry?.resolved ?? null };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export type FileProgress = { bytes: number; records: number };

export type FileImport = ImportOutcome & { file: string; unit: "line" | "record"; bytes: number; seconds: number };

/** Imports one file: everything it holds lands, or (any bad record) nothing does. */
export async function importFile(
  file: string,
  opts: {
    condition: Condition;
    resolved: ResolvedLookup | null;
    source: ImportSource["source"];
    userId?: string | null;
    byName?: string | null;
    displayName?: string;
    strict?: boolean;
    onProgress?: (p: FileProgress) => void;
  },
): Promise<FileImport> {
  const started = performance.now();
  const bytes = fs.statSync(file).size;
  let progress: FileProgress = { bytes: 0, records: 0 };
  const listener = safely(opts.onProgress);
  const report = (p: Partial<FileProgress>) => {
    progress = { ...progress, ...p };
    listener(progress);
  };
  // The checksum is taken while the file is read for import, not in a pass of its own.
  const hash = crypto.createHash("sha256");
  const records = readRecords(file, {
    condition: opts.condition,
    resolved: opts.resolved,
    asks: opts.source === "web" ? "fields" : opts.source === "api" ? "parameters" : "flags",
    limits: readLimits(),
    hash,
    onBytes: (b) => report({ bytes: b }),
  });
  const outcome = await runImport(
    {
      fileName: opts.displayName ?? file,
      format: "auto",
      fileBytes: bytes,
      sha256: () => hash.copy().digest("hex"),
      source: opts.source,
      userId: opts.userId ?? null,
      byName: opts.byName ?? null,
      strict: opts.strict ?? false,
    },
    records,
    (n) => report({ records: n }),
  );
  return {
    ...outcome,
    file: opts.displayName ?? file,
    unit: fileShape(file).unit,
    bytes,
    seconds: (performance.now() - started) / 1000,
  };
}
