import "server-only";
// Raw SQL for the write paths that Prisma cannot make fast: an import is one transaction that
// streams rows in with COPY. Both databases speak it: PostgreSQL through pg-copy-streams on a
// pooled connection, PGlite through COPY ... FROM '/dev/blob'.
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { from as copyFromStream } from "pg-copy-streams";
import { currentDb } from "@/lib/db-connect";

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** COPY rows into table(columns); values: string, number, boolean, Date, null, or objects (as JSON). */
  copy(table: string, columns: readonly string[], rows: ReadonlyArray<readonly unknown[]>): Promise<void>;
  /** COPY text already encoded (encodeCopyRow lines), in chunks. */
  copyText(table: string, columns: readonly string[], chunks: Iterable<string>): Promise<void>;
}

/** One row in COPY's text format, without its newline. */
export function encodeCopyRow(values: readonly unknown[]): string {
  return values.map(copyValue).join("\t");
}

/** One value in COPY's text format: \N for null; backslash, tab, newline and CR escaped. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return "\\N";
  const s = typeof v === "string" ? v
    : typeof v === "boolean" ? (v ? "t" : "f")
    : v instanceof Date ? v.toISOString()
    : typeof v === "number" || typeof v === "bigint" ? String(v)
    : JSON.stringify(v);
  return s.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

/** Joins lines into chunks of about 1 MB, so a large batch is never one huge string. */
function* chunkLines(lines: Iterable<string>): Generator<string> {
  let chunk = "";
  for (const line of lines) {
    chunk += line + "\n";
    if (chunk.length > 1 << 20) { yield chunk; chunk = ""; }
  }
  if (chunk) yield chunk;
}

function* copyLines(rows: ReadonlyArray<readonly unknown[]>): Generator<string> {
  yield* chunkLines((function* () { for (const row of rows) yield encodeCopyRow(row); })());
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const copySql = (table: string, columns: readonly string[], source: string) =>
  `COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) FROM ${source}`;

/** A pooled connection's Sql: queries and COPY through pg-copy-streams. */
function poolSql(client: import("pg").PoolClient): Sql {
  return {
    async query<R>(text: string, params?: unknown[]) { return (await client.query(text, params)).rows as R[]; },
    async copy(table, columns, rows) {
      if (rows.length) await this.copyText(table, columns, copyLines(rows));
    },
    async copyText(table, columns, chunks) {
      await pipeline(Readable.from(chunks), client.query(copyFromStream(copySql(table, columns, "STDIN"))));
    },
  };
}

/** A second transaction beside the main one, on a connection of its own; see sideTransaction. */
export type SideTransaction = {
  sql: Sql;
  commit(): Promise<void>;
  /** Rolls back unless committed, and returns the connection. Safe to call more than once. */
  release(): Promise<void>;
};

/**
 * A transaction on a second connection, so the database works on two things of one import at once
 * (its other core). Null on the embedded database, which has one connection. Its caller commits it
 * just before the main transaction; what it wrote must be harmless if the main one then fails.
 */
export async function sideTransaction(): Promise<SideTransaction | null> {
  const handle = currentDb();
  if (!handle.pool) return null;
  const client = await handle.pool.connect();
  const ignore = () => {};
  client.on("error", ignore);
  let open = true, released = false;
  try {
    await client.query("BEGIN");
  } catch (e) {
    client.off("error", ignore);
    client.release(e as Error);
    throw e;
  }
  return {
    sql: poolSql(client),
    async commit() {
      await client.query("COMMIT");
      open = false;
    },
    async release() {
      if (released) return;
      released = true;
      const rollback = open ? client.query("ROLLBACK") : Promise.resolve();
      await rollback.then(() => client.release(), (err: Error) => client.release(err));
      client.off("error", ignore);
    },
  };
}

/** Runs fn in one transaction: everything it wrote lands, or (on any throw) nothing does. */
export async function transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
  const handle = currentDb();
  if (handle.pool) {
    const client = await handle.pool.connect();
    // A checked-out connection that dies emits "error" on itself, not on the pool: without a
    // listener that would crash the process. The failing query rejects, and the catch below handles it.
    const ignore = () => {};
    client.on("error", ignore);
    const sql = poolSql(client);
    try {
      await client.query("BEGIN");
      const out = await fn(sql);
      await client.query("COMMIT");
      client.off("error", ignore);
      client.release();
      return out;
    } catch (e) {
      // A connection that failed mid-COPY or lost the server is discarded, not returned to the pool.
      await client.query("ROLLBACK").then(() => client.release(), (err) => client.release(err));
      client.off("error", ignore);
      throw e;
    }
  }
  const engine = handle.pglite!;
  return engine.transaction(async (tx) => {
    const sql: Sql = {
      async query<R>(text: string, params?: unknown[]) { return (await tx.query<R>(text, params)).rows; },
      async copy(table, columns, rows) {
        if (rows.length) await sql.copyText(table, columns, copyLines(rows));
      },
      async copyText(table, columns, chunks) {
        const parts = [...chunks];
        if (parts.length) await tx.query(copySql(table, columns, "'/dev/blob'"), [], { blob: new Blob(parts) });
      },
    };
    return fn(sql);
  });
}
