// A frozen report published as a folder that opens from the file system (protocol: docs/formats.md, "Bundles").
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import {
  adjudicatorHandles,
  BUNDLE_TEXT,
  type BundleRead,
  bundleDetails,
  bundleRows,
  bundleTaskRecords,
} from "@/lib/data/bundle-reads";
import { dataFingerprint, type FrozenReportView } from "@/lib/data/frozen-reports";
import { idsWhere } from "@/lib/data/trajectories";
import { agreementJson } from "@/lib/domain/agreement-format";
import {
  type BundleChoice,
  bundled,
  personNames,
  privateAgreement,
  taskFile,
  trajectoryFile,
} from "@/lib/domain/bundle";
import type { LinkTarget } from "@/lib/domain/bundle-html";
import type { FigurePart } from "@/lib/domain/figure-table";
import { reportSections } from "@/lib/domain/report-sections";
import { resultsReportJson } from "@/lib/domain/results-format";
import { parseTrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { AppError } from "@/lib/errors";
import { workBudget } from "@/lib/server/memory-budget";
import { type BundleSet, bundlePages } from "./bundle-pages";

const gzipped = promisify(gzip);
const CHUNK = 200;
/** Messages read at once: each of its texts kept to BUNDLE_TEXT characters, a chunk is at most ~100 MB. */
const CHUNK_MESSAGES = 4000;
const LINKS_AT_ONCE = 4;

export type BundleOptions = {
  trajectories: BundleChoice;
  /** People by their names instead of `annotator 1`, `annotator 2` … */
  names: boolean;
  progress?: (done: number, total: number) => void;
};
export type BundleSummary = {
  trajectories: number;
  links: number;
  files: number;
  bytes: number;
  largest: { file: string; bytes: number };
};

/** A data file: a script that hands its value to the viewer (a page opened from disk may fetch nothing). */
const dataScript = (call: string, ...args: unknown[]) =>
  `SA_BUNDLE.${call}(${args.map((a) => JSON.stringify(a)).join(",")});\n`;

/** JSON text gzipped and written in base64 (a script can carry only text). */
const gzipText = async (json: string) => (await gzipped(Buffer.from(json))).toString("base64");
const packed = (value: unknown) => gzipText(JSON.stringify(value));

async function sameData(report: FrozenReportView): Promise<void> {
  if ((await dataFingerprint()) !== report.fingerprint)
    throw new AppError(
      "CONFLICT",
      "the data have changed since this report was frozen, so its trajectories are no longer the ones its figures " +
        "count: freeze a new report and bundle that one",
    );
}

/** Writes the bundle into `out` (which must not exist): built beside it, moved in place when whole. */
export async function writeBundle(report: FrozenReportView, out: string, o: BundleOptions): Promise<BundleSummary> {
  if (fs.existsSync(out)) throw new AppError("BAD_INPUT", `${out} exists already: name a new folder`, "out");
  await sameData(report);
  const work = `${out}.partial-${process.pid}`;
  fs.rmSync(work, { recursive: true, force: true });
  try {
    const summary = await writeInto(report, work, o);
    await sameData(report); // nothing the figures read changed while the folder was written
    fs.renameSync(work, out);
    return summary;
  } catch (e) {
    fs.rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

async function writeInto(report: FrozenReportView, dir: string, o: BundleOptions): Promise<BundleSummary> {
  const files = new Map<string, number>();
  const write = (file: string, body: string | Buffer) => {
    const at = path.join(dir, file);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.writeFileSync(at, body);
    files.set(file, Buffer.byteLength(body));
  };
  const rows = await bundleRows();
  const number = new Map(rows.map((r) => [r.id, r.n]));
  const inside = rows.filter((r) => bundled(o.trajectories, r));
  const people = await peopleOf(report, o.names);
  const person = (handle: string) => people.get(handle) ?? "annotator";
  const agreement = privateAgreement(report.figures.agreement, person, (id) => number.get(id));
  const sets = await linkSets(report, agreement, number, new Set(inside.map((r) => r.n)));
  const tasks = await writeTrajectories(inside, write, person, o.progress);
  write(
    "data/list.js",
    dataScript(
      "list",
      inside.map(({ id: _, messages: __, ...r }) => ({ ...r, k: tasks.get(r.task) ?? null })),
    ),
  );
  write("data/sets.js", dataScript("sets", sets.list));
  write(
    "report.json",
    `${JSON.stringify(
      {
        report: {
          name: report.name,
          fingerprint: report.fingerprint,
          frozen_at: report.createdAt,
          app_version: report.appVersion,
        },
        results: resultsReportJson(report.results),
        agreement: agreementJson(agreement),
      },
      null,
      2,
    )}\n`,
  );
  for (const [file, body] of bundlePages(report, sets.sections, sets.target, inside.length, o.names)) write(file, body);
  const largest = [...files].reduce((a, b) => (b[1] > a[1] ? b : a), ["", 0] as [string, number]);
  return {
    trajectories: inside.length,
    links: sets.list.length,
    files: files.size,
    bytes: [...files.values()].reduce((a, b) => a + b, 0),
    largest: { file: largest[0], bytes: largest[1] },
  };
}

/** Annotators and adjudicators the bundle mentions, named in one numbering. */
async function peopleOf(report: FrozenReportView, names: boolean): Promise<Map<string, string>> {
  const gold = report.figures.agreement.gold;
  return personNames(
    [
      ...(gold?.annotators.map((a) => a.annotator) ?? []),
      ...(gold?.by_category?.filter((c) => c.kind === "annotator").map((c) => c.rater) ?? []),
      ...(await adjudicatorHandles()),
    ],
    names,
  );
}

/**
 * Every figure's link, opened here as the live list would (the same filter, the same data: the fingerprint
 * matched), as the numbers of its trajectories. The sections are written from the private figures; their
 * links are the report's own, cell for cell (names differ, the tables' shapes do not).
 */
async function linkSets(
  report: FrozenReportView,
  agreement: FrozenReportView["figures"]["agreement"],
  number: ReadonlyMap<number, number>,
  inside: ReadonlySet<number>,
) {
  const left = report.figures.rulesLeftOut;
  const own = reportSections(report.results, report.figures.agreement, left);
  const sections = reportSections(report.results, agreement, left);
  const hrefs: Array<{ href: string; counted: number | null }> = [];
  const at = new Map<string, number>();
  const seen = new Map<string, number>();
  const add = (a: FigurePart, b: FigurePart | undefined) => {
    if (!a.href || !b?.href) return;
    if (!seen.has(a.href)) seen.set(a.href, hrefs.push({ href: a.href, counted: a.count ?? null }) - 1);
    at.set(b.href, seen.get(a.href)!);
  };
  own.forEach((s, i) => {
    for (const [j, t] of s.tables.entries())
      for (const [k, r] of t.table.rows.entries())
        for (const [l, c] of r.cells.entries()) {
          const mine = sections[i]!.tables[j]!.table.rows[k]!.cells[l]!;
          add(c, mine);
          for (const [m, p] of (c.parts ?? []).entries()) add(p, mine.parts?.[m]);
        }
  });
  const list: BundleSet[] = new Array(hrefs.length);
  let taken = 0;
  const worker = async () => {
    for (let i = taken++; i < hrefs.length; i = taken++) {
      const { href, counted } = hrefs[i]!;
      const filter = parseTrajectoryFilter(new URL(href, "http://bundle.invalid").searchParams);
      const ns = (await idsWhere(filter)).map((id) => number.get(id)!).sort((a, b) => a - b);
      list[i] = { all: ns.length, counted, here: ns.filter((n) => inside.has(n)) };
    }
  };
  await Promise.all(Array.from({ length: LINKS_AT_ONCE }, worker));
  const target: LinkTarget = (href) => {
    const set = at.get(href);
    return set === undefined ? null : { set, count: list[set]!.all };
  };
  return { list, sections, target };
}

/** The rows in chunks read at once: at most CHUNK trajectories and CHUNK_MESSAGES messages (one more alone). */
function chunked<T extends { messages: number }>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  let messages = Number.POSITIVE_INFINITY;
  for (const r of rows) {
    if (messages + r.messages > CHUNK_MESSAGES || out.at(-1)!.length >= CHUNK) {
      out.push([]);
      messages = 0;
    }
    out.at(-1)!.push(r);
    messages += r.messages;
  }
  return out;
}

/** The most a chunk's texts may take in memory (UTF-16, a content, a reasoning and a call's input a message). */
const chunkBytes = (chunk: ReadonlyArray<{ messages: number }>) =>
  chunk.reduce((n, r) => n + r.messages, 0) * 3 * BUNDLE_TEXT * 2;

/** Each trajectory packed into its file, a chunk read while the one before is packed. */
async function writeTrajectories(
  rows: readonly BundleRead[],
  write: (file: string, body: string) => void,
  person: (handle: string) => string,
  progress?: (done: number, total: number) => void,
): Promise<Map<string, number>> {
  const taskNumbers = new Map<string, number>();
  const chunks = chunked(rows);
  // Each chunk holds its share of the process's memory for work (decision 32) from its read to its last file.
  const read = async (c: number) => {
    const held = await workBudget().await(chunkBytes(chunks[c]!));
    const details = await bundleDetails(
      chunks[c]!.map((r) => r.id),
      person,
    ).catch((e) => {
      held.release();
      throw e;
    });
    return { details, held };
  };
  let next = chunks.length ? read(0) : null;
  let done = 0;
  for (const [c, chunk] of chunks.entries()) {
    const { details, held } = await next!;
    next = c + 1 < chunks.length ? read(c + 1) : null;
    next?.catch(() => {}); // thrown where awaited, not left unhandled meanwhile
    const records = await bundleTaskRecords([...new Set(chunk.map((r) => r.task))].filter((k) => !taskNumbers.has(k)));
    for (const r of records) {
      const k = taskNumbers.size + 1;
      taskNumbers.set(r.key, k);
      write(taskFile(k), dataScript("task", k, await packed(r)));
    }
    await Promise.all(
      chunk.map(async ({ id, messages: _, ...row }) => {
        const { messagesJson, ...detail } = details.get(id)!;
        const head = JSON.stringify({ ...row, k: taskNumbers.get(row.task) ?? null, ...detail });
        const whole = `${head.slice(0, -1)},"messages":${messagesJson}}`;
        write(trajectoryFile(row.n), dataScript("trajectory", row.n, await gzipText(whole)));
      }),
    );
    held.release();
    done += chunk.length;
    progress?.(done, rows.length);
  }
  return taskNumbers;
}
