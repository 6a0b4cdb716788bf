import "server-only";
// Hand-written SQL, the one way (decision 51): statements on the driver, transactions with COPY on both databases.

import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { from as copyFromStream } from "pg-copy-streams";
import { currentDb, preparedQuery } from "@/lib/db/connect";
import { currentScope } from "@/lib/db/scope";

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
  const s =
    typeof v === "string"
      ? v
      : typeof v === "boolean"
        ? v
          ? "t"
          : "f"
        : v instanceof Date
          ? v.toISOString()
          : typeof v === "number" || typeof v === "bigint"
            ? String(v)
            : JSON.stringify(v);
  return s.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

/** Joins lines into chunks of about 1 MB, so a large batch is never one huge string. */
function* chunkLines(lines: Iterable<string>): Generator<string> {
  let chunk = "";
  for (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

function* copyLines(rows: ReadonlyArray<readonly unknown[]>): Generator<string> {
  yield* chunkLines(
    (function* () {
      for (const row of rows) yield encodeCopyRow(row);
    })(),
  );
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const copySql = (table: string, columns: readonly string[], source: string) =>
  `COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) FROM ${source}`;

/** A transaction held on a pooled connection of its own (the import's, or the one beside it: sideTransaction). */
export type HeldTransaction = {
  sql: Sql;
  commit(): Promise<void>;
  /** Rolls back unless committed, and returns the connection. Safe to call more than once. */
  release(): Promise<void>;
};

/** A pooled connection holding one transaction; a dying connection's first error is kept for every later one. */
async function pooledTransaction(
  pool: import("pg").Pool,
  prelude?: (sql: Sql) => Promise<void>,
): Promise<HeldTransaction> {
  const client = await pool.connect();
  let cause: Error | null = null;
  const onError = (e: Error) => {
    cause ??= e;
  };
  client.on("error", onError);
  const explained = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (e) {
      throw cause ?? e;
    }
  };
  const sql: Sql = {
    query: <R>(text: string, params?: unknown[]) =>
      explained(async () => (await client.query(text, params)).rows as R[]),
    async copy(table, columns, rows) {
      if (rows.length) await this.copyText(table, columns, copyLines(rows));
    },
    copyText: (table, columns, chunks) =>
      explained(() => pipeline(Readable.from(chunks), client.query(copyFromStream(copySql(table, columns, "STDIN"))))),
  };
  let open = false,
    released = false;
  let preluded = false;
  const release = async () => {
    if (released) return;
    released = true;
    // A prelude's session locks end with the transaction, not with the connection's time in the pool.
    const rolledBack = open ? client.query("ROLLBACK") : Promise.resolve();
    const end = preluded ? rolledBack.then(() => client.query("SELECT pg_advisory_unlock_all()")) : rolledBack;
    await end.then(
      () => client.release(cause ?? undefined),
      (err: Error) => client.release(err),
    );
    client.off("error", onError);
  };
  try {
    if (prelude) {
      preluded = true;
      await prelude(sql);
    }
    await explained(() => client.query("BEGIN"));
    open = true;
  } catch (e) {
    await release();
    throw e;
  }
  return {
    sql,
    async commit() {
      await explained(() => client.query("COMMIT"));
      open = false;
    },
    release,
  };
}

/** A transaction on a second connection for one import (null on the embedded database), committed just before. */
export async function sideTransaction(): Promise<HeldTransaction | null> {
  const { pool } = currentDb();
  return pool ? pooledTransaction(pool) : null;
}

/** Runs fn in one transaction; a prelude runs before it on its connection, its session locks held to the end. */
export async function transaction<T>(
  fn: (sql: Sql) => Promise<T>,
  opts: { prelude?: (sql: Sql) => Promise<void> } = {},
): Promise<T> {
  const scoped = currentScope();
  if (scoped) return fn(scoped.sql as Sql);
  const handle = currentDb();
  if (handle.pool) {
    const tx = await pooledTransaction(handle.pool, opts.prelude);
    try {
      const out = await fn(tx.sql);
      await tx.commit();
      return out;
    } finally {
      await tx.release();
    }
  }
  const engine = handle.pglite!;
  // One process holds the embedded database, so nobody else needs its locks: it unlocks at once.
  if (opts.prelude) {
    await opts.prelude({
      query: async <R>(text: string, params?: unknown[]) => (await engine.query<R>(text, params)).rows,
      copy: () => Promise.reject(new Error("no COPY in a prelude")),
      copyText: () => Promise.reject(new Error("no COPY in a prelude")),
    });
    await engine.query("SELECT pg_advisory_unlock_all()");
  }
  return engine.transaction(async (tx) => {
    const sql: Sql = {
      async query<R>(text: string, params?: unknown[]) {
        return (await tx.query<R>(text, params)).rows;
      },
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

/** One statement, committed as it ends (inside a scope, in its transaction). */
export async function statement<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]> {
  return alone<T>(text, params, false);
}

/** statement() for a text that always gives one row (an aggregate, a function's value). */
export async function oneRow<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T> {
  const [row] = await alone<T>(text, params, false);
  if (row === undefined) throw new Error(`no row from: ${text.slice(0, 80)}`);
  return row;
}

/** statement() for a fixed text asked many times a second: prepared once per connection (decision 45). */
export async function prepared<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]> {
  return alone<T>(text, params, true);
}

async function alone<T>(text: string, params: unknown[] | undefined, prepare: boolean): Promise<T[]> {
  const scoped = currentScope();
  if (scoped) return (scoped.sql as Sql).query<T>(text, params);
  const handle = currentDb();
  if (handle.pool && prepare) return preparedQuery<T>(handle.pool, text, params ?? []);
  if (handle.pool) return (await handle.pool.query(text, params)).rows as T[];
  return (await handle.pglite!.query<T>(text, params)).rows;
}
