// Once per integration run: a migrated template that every test file copies (test/test-db.ts).
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openPGlite } from "@/lib/db/connect";
import { applyMigrations } from "@/prisma/migrate-engine";
import { adminQuery, withDatabase } from "./test-db";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template every test file copies: a database name, or a PGlite dump's path. */
    testTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  // Named per run, so two runs against the same server (two checkouts, a developer beside CI) never share it.
  const templateDb = `shortcut_audit_test_template_${process.pid}`;
  const templateDump = path.join(".data", `test-template-${process.pid}.tar.gz`);
  const url = process.env.DATABASE_URL;
  if (url) {
    await adminQuery(url, `DROP DATABASE IF EXISTS "${templateDb}" WITH (FORCE)`);
    await adminQuery(url, `CREATE DATABASE "${templateDb}"`);
    await applyMigrations({ kind: "postgres", url: withDatabase(url, templateDb) });
    project.provide("testTemplate", templateDb);
    console.log(`integration tests on PostgreSQL (${new URL(url).host}), one database per file`);
    return async () => {
      await adminQuery(url, `DROP DATABASE IF EXISTS "${templateDb}" WITH (FORCE)`);
    };
  }
  const pglite = openPGlite(null);
  await applyMigrations({ kind: "pglite", dir: null }, pglite);
  const dump = await pglite.dumpDataDir("gzip");
  await pglite.close();
  fs.mkdirSync(path.dirname(templateDump), { recursive: true });
  fs.writeFileSync(templateDump, Buffer.from(await dump.arrayBuffer()));
  project.provide("testTemplate", templateDump);
  console.log("integration tests on embedded PostgreSQL (PGlite), one in-memory database per file");
  return () => fs.rmSync(templateDump, { force: true });
}
