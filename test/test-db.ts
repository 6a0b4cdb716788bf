// Each integration test file gets its own database, copied from a migrated template made once per
// run (test/int-global-setup.ts): on PostgreSQL (DATABASE_URL set) a database created from a
// template database; otherwise an in-memory PGlite restored from a dumped data folder.

import crypto from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { connect, type DbHandle, openPGlite } from "@/lib/db/connect";

/** The server URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A database of the test file's own, copied from the run's migrated template (test/int-global-setup.ts). */
export async function openTestDb(template: string): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    // Test databases carry the "shortcut_audit_test_" prefix; nothing else is ever dropped.
    const name = `shortcut_audit_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    await adminQuery(url, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    const handle = connect({ kind: "postgres", url: withDatabase(url, name) });
    return {
      handle,
      drop: async () => {
        await handle.close();
        await adminQuery(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      },
    };
  }
  const pglite = openPGlite(null, new Blob([fs.readFileSync(template)]));
  const handle = connect({ kind: "pglite", dir: null }, pglite);
  return { handle, drop: () => handle.close() };
}
