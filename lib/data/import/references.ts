import "server-only";
// Which trajectory a vote or label names: by id or natural key, stored or in the same file.
import { storableText } from "@/lib/domain/text";
import type { NaturalKey, RecordError, TrajectoryRecord } from "@/lib/formats/interchange";
import type { TrajectoryRef } from "@/lib/formats/verdict-records";
import type { Sql } from "../sql";
import type { Located } from "./context";

/** A natural key as one string (names as stored). */
export const nameKeyString = (k: NaturalKey) =>
  [k.benchmark, k.model, k.task, k.network, k.prompt, k.run].join("\u0000");

const describeKey = (k: NaturalKey) =>
  `${k.benchmark} / ${k.model} / ${k.task} / network ${k.network ? "on" : "off"} / ${k.prompt} / run ${k.run}`;

/** A reference as one string: "id:…" or "key:…". */
export function refKey(ref: TrajectoryRef): string {
  if ("id" in ref) return `id:${storableText(ref.id)}`;
  const k = ref.key;
  const stored = {
    ...k,
    benchmark: storableText(k.benchmark),
    model: storableText(k.model),
    task: storableText(k.task),
  };
  return `key:${nameKeyString(stored)}`;
}

/** The references by which a file's own trajectory can be named: its id and its natural key. */
export function fileRefKeys(r: TrajectoryRecord): string[] {
  const key = refKey({
    key: { benchmark: r.benchmark, model: r.model, task: r.task.id, network: r.network, prompt: r.prompt, run: r.run },
  });
  return r.id ? [refKey({ id: r.id }), key] : [key];
}

function missing(line: number, ref: TrajectoryRef): RecordError {
  return {
    line,
    field: "trajectory",
    message: "id" in ref ? `no trajectory has id "${ref.id}"` : `no trajectory ${describeKey(ref.key)}`,
  };
}

const KEY_SQL = `
  SELECT tr.id, b.name AS benchmark, m.name AS model, k.key AS task, tr.network, tr.prompt::text AS prompt, tr.run
  FROM unnest($1::text[], $2::text[], $3::text[], $4::bool[], $5::text[], $6::int[]) AS q(benchmark, model, task,
    network, prompt, run)
  JOIN benchmark b ON b.name = q.benchmark JOIN agent_model m ON m.name = q.model
  JOIN task k ON k."benchmarkId" = b.id AND k.key = q.task
  JOIN trajectory tr ON tr."benchmarkId" = b.id AND tr."modelId" = m.id AND tr."taskId" = k.id
    AND tr.network = q.network AND tr.prompt::text = q.prompt AND tr.run = q.run`;

/** Trajectory ids for references by id or natural key (by refKey); missing ones are absent. */
async function resolve(sql: Sql, refs: readonly TrajectoryRef[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const ids = refs.flatMap((r) => ("id" in r ? [storableText(r.id)] : []));
  if (ids.length) {
    const rows = await sql.query<{ id: number; externalId: string }>(
      `SELECT id, "externalId" FROM trajectory WHERE "externalId" = ANY($1::text[])`,
      [ids],
    );
    for (const row of rows) out.set(`id:${row.externalId}`, row.id);
  }
  const keys = refs.flatMap((r) => ("key" in r ? [r.key] : []));
  if (keys.length) {
    const column = <T>(f: (k: NaturalKey) => T) => keys.map(f);
    const rows = await sql.query<NaturalKey & { id: number }>(KEY_SQL, [
      column((k) => storableText(k.benchmark)),
      column((k) => storableText(k.model)),
      column((k) => storableText(k.task)),
      column((k) => k.network),
      column((k) => k.prompt),
      column((k) => k.run),
    ]);
    for (const row of rows) out.set(`key:${nameKeyString(row)}`, row.id);
  }
  return out;
}

/** Located records with their trajectory id, and errors for those whose trajectory is missing. */
export async function locate<I extends Located<{ trajectory: TrajectoryRef }>>(sql: Sql, items: readonly I[]) {
  const ids = await resolve(
    sql,
    items.map((i) => i.record.trajectory),
  );
  const errors: RecordError[] = [];
  const found: Array<I & { trajectoryId: number }> = [];
  for (const item of items) {
    const id = ids.get(refKey(item.record.trajectory));
    if (id === undefined) errors.push(missing(item.line, item.record.trajectory));
    else found.push({ ...item, trajectoryId: id });
  }
  return { found, errors };
}

/** For a rejected file: the votes or labels whose trajectory exists nowhere, so one pass reports every bad record. */
export async function missingReferences(
  sql: Sql,
  items: ReadonlyArray<Located<{ trajectory: TrajectoryRef }>>,
  fileRefs: ReadonlySet<string>,
): Promise<RecordError[]> {
  const pending = items.filter((i) => !fileRefs.has(refKey(i.record.trajectory)));
  if (!pending.length) return [];
  const ids = await resolve(
    sql,
    pending.map((i) => i.record.trajectory),
  );
  return pending.filter((i) => !ids.has(refKey(i.record.trajectory))).map((i) => missing(i.line, i.record.trajectory));
}
