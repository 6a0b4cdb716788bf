import "server-only";
// Search documents: new trajectories' written on a side connection during the import, committed just before it.
import { COMMAND_PREFIX, OUTPUT_PREFIX, SearchDocument } from "@/lib/domain/search";
import { type HeldTransaction, type Sql, transaction } from "./sql";

export type SearchRow = { trajectoryId: number; commands: string; outputs: string };

/** The advisory lock between imports (shared) and the sweep (exclusive). */
const SEARCH_LOCK = 7_212_026;
/** Batches of documents waiting for the side connection before the import waits for it. */
const MAX_QUEUED = 4;

/** Replaces these trajectories' documents by COPY (a tsvector literal goes into COPY's text format as it is). */
async function replaceDocuments(sql: Sql, rows: readonly SearchRow[]): Promise<void> {
  if (!rows.length) return;
  await sql.query(`DELETE FROM trajectory_search WHERE "trajectoryId" = ANY($1::int[])`, [
    rows.map((r) => r.trajectoryId),
  ]);
  await sql.copyText(
    "trajectory_search",
    ["trajectoryId", "commands", "outputs"],
    rows.map((r) => `${r.trajectoryId}\t${r.commands}\t${r.outputs}\n`),
  );
}

export class SearchDocumentWriter {
  /** Trajectories this import created: their documents go to the side transaction. */
  private readonly created = new Set<number>();
  /** Side writes not yet known to be done, oldest first; each starts when the one before it ends. */
  private readonly queue: Array<Promise<void>> = [];
  private failure: unknown = null;
  private locked = false;
  private side: Promise<HeldTransaction | null> | null = null;

  /** `openSide` opens the side transaction, when the first document is written (null: write inside). */
  constructor(
    private readonly sql: Sql,
    private readonly openSide: () => Promise<HeldTransaction | null>,
  ) {}

  /** Writes a batch's documents; the import waits only when MAX_QUEUED side writes are waiting. */
  async write(rows: ReadonlyArray<SearchRow & { inserted: boolean }>): Promise<void> {
    if (!this.locked) {
      await this.sql.query(`SELECT pg_advisory_xact_lock_shared(${SEARCH_LOCK})`);
      this.locked = true;
    }
    const side = await (this.side ??= this.openSide());
    if (!side) return replaceDocuments(this.sql, rows);
    const beside = rows.filter((r) => r.inserted || this.created.has(r.trajectoryId));
    const inside = rows.filter((r) => !r.inserted && !this.created.has(r.trajectoryId));
    for (const r of beside) this.created.add(r.trajectoryId);
    while (this.queue.length >= MAX_QUEUED) await this.queue.shift();
    if (this.failure) throw this.failure;
    const previous = this.queue.at(-1) ?? Promise.resolve();
    this.queue.push(
      previous
        .then(() => (this.failure ? undefined : replaceDocuments(side.sql, beside)))
        .then(
          () => {},
          (e: unknown) => {
            this.failure ??= e;
          },
        ),
    );
    await replaceDocuments(this.sql, inside);
  }

  private async settled(): Promise<void> {
    await Promise.all(this.queue);
    if (this.failure) throw this.failure;
  }

  /** Waits for the side writes and commits them: call last, just before the import's transaction commits. */
  async finish(): Promise<void> {
    await this.settled();
    await (await this.side)?.commit();
  }

  /** Returns the side connection (rolling back what was not committed). Call whatever happened. */
  async release(): Promise<void> {
    await Promise.all(this.queue);
    const side = await this.side?.catch(() => null);
    await side?.release();
  }
}

/** Builds missing documents and sweeps orphans (`npm start`, before CLI imports); returns the counts. */
export async function rebuildSearchDocuments(log?: (line: string) => void): Promise<{ built: number; swept: number }> {
  const { ids, swept } = await transaction(async (sql) => {
    // The sweep waits for no import: while one runs, it is left for the next time.
    const [{ free }] = (await sql.query<{ free: boolean }>(
      `SELECT pg_try_advisory_xact_lock(${SEARCH_LOCK}) AS free`,
    )) as [{ free: boolean }];
    const gone = free
      ? await sql.query(
          `DELETE FROM trajectory_search s WHERE NOT EXISTS (SELECT 1 FROM trajectory t WHERE t.id =
            s."trajectoryId") RETURNING 1`,
        )
      : [];
    const missing = await sql.query<{ id: number }>(
      `SELECT id FROM trajectory t WHERE NOT EXISTS (SELECT 1 FROM trajectory_search s WHERE s."trajectoryId" =
        t.id) ORDER BY id`,
    );
    return { ids: missing.map((r) => r.id), swept: gone.length };
  });
  const BATCH = 200;
  let said = performance.now(),
    built = 0;
  if (ids.length) log?.(`search documents: building ${ids.length} (trajectories without one)`);
  for (let i = 0; i < ids.length; i += BATCH) {
    await transaction(async (sql) => {
      // A trajectory an import is replacing is locked by it and gets its document there: skip it.
      const free = await sql.query<{ id: number }>(
        `SELECT id FROM trajectory WHERE id = ANY($1::int[]) FOR SHARE SKIP LOCKED`,
        [ids.slice(i, i + BATCH)],
      );
      const rows = await documentsOf(
        sql,
        free.map((r) => r.id),
      );
      built += rows.length;
      // A document written meanwhile (the trajectory was imported again) is newer: keep it.
      await sql.query(
        `INSERT INTO trajectory_search ("trajectoryId", commands, outputs)
        SELECT * FROM unnest($1::int[], $2::text[]::tsvector[], $3::text[]::tsvector[]) ON CONFLICT
          ("trajectoryId") DO NOTHING`,
        [rows.map((r) => r.trajectoryId), rows.map((r) => r.commands), rows.map((r) => r.outputs)],
      );
    });
    if (performance.now() - said > 2000) {
      log?.(`search documents: ${Math.min(i + BATCH, ids.length)} of ${ids.length} built`);
      said = performance.now();
    }
  }
  if (ids.length || swept) log?.(`search documents: ${built} built, ${swept} left by interrupted imports removed`);
  return { built, swept };
}

/** The documents of stored trajectories, from the start of their messages and commands, as the importer builds them. */
async function documentsOf(sql: Sql, ids: readonly number[]): Promise<SearchRow[]> {
  // left() counts characters, never fewer than the UTF-16 units the documents keep.
  const messages = await sql.query<{ trajectoryId: number; step: number; seq: number; role: string; content: string }>(
    `SELECT "trajectoryId", step, seq, role::text, left(content, ${OUTPUT_PREFIX}) AS content FROM message
     WHERE "trajectoryId" = ANY($1::int[]) ORDER BY "trajectoryId", step, seq`,
    [ids],
  );
  const calls = await sql.query<{ trajectoryId: number; messageSeq: number; input: string }>(
    `SELECT "trajectoryId", "messageSeq", left(input, ${COMMAND_PREFIX}) AS input FROM tool_call
     WHERE "trajectoryId" = ANY($1::int[]) ORDER BY "trajectoryId", "messageSeq", seq`,
    [ids],
  );
  const inputs = new Map<string, string[]>();
  for (const c of calls) {
    const k = `${c.trajectoryId}:${c.messageSeq}`;
    const list = inputs.get(k);
    if (list) list.push(c.input);
    else inputs.set(k, [c.input]);
  }
  const documents = new Map<number, SearchDocument>(ids.map((id) => [id, new SearchDocument()]));
  for (const m of messages)
    documents.get(m.trajectoryId)!.addMessage(m.role, m.content, inputs.get(`${m.trajectoryId}:${m.seq}`) ?? []);
  return [...documents].map(([trajectoryId, d]) => ({ trajectoryId, ...d.vectors() }));
}
