// Once per integration run: a migrated template that every test file copies (test/test-db.ts).
import fs from "node:fs";
import path from "node:path";
import { openPGlite } from "@/lib/db-connect";
import { applyMigrations } from "@/prisma/migrate-engine";
import { adminQuery, TEMPLATE_DB, TEMPLATE_DUMP, withDatabase } from "./test-db";

export default async function setup() {
  const url = process.env.DATABASE_URL;
  if (url) {
    await adminQuery(url, `DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
    await adminQuery(url, `CREATE DATABASE "${TEMPLATE_DB}"`);
    await applyMigrations({ kind: "postgres", url: withDatabase(url, TEMPLATE_DB) });
    console.log(`integration tests on PostgreSQL (${new URL(url).host}), one database per file`);
    return async () => { await adminQuery(url, `DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`); };
  }
  const pglite = openPGlite(null);
  await applyMigrations({ kind: "pglite", dir: null }, pglite);
  const dump = await pglite.dumpDataDir("gzip");
  await pglite.close();
  fs.mkdirSync(path.dirname(TEMPLATE_DUMP), { recursive: true });
  fs.writeFileSync(TEMPLATE_DUMP, Buffer.from(await dump.arrayBuffer()));
  console.log("integration tests on embedded PostgreSQL (PGlite), one in-memory database per file");
  return () => fs.rmSync(TEMPLATE_DUMP, { force: true });
}
