// The server the Playwright journeys run against: the real start path (build when stale, migrate,
// demo data, next start) on a database of its own, made fresh each run so journeys see known data.
// With DATABASE_URL: a database named shortcut_audit_e2e on that server; otherwise PGlite in .data/e2e-pglite.
import fs from "node:fs";
import { spawn, execFileSync } from "node:child_process";
import { adminQuery, withDatabase } from "@/test/test-db";

// The journeys read the demo study: asked for, since a PostgreSQL database does not get it unasked.
const env: NodeJS.ProcessEnv = { ...process.env, DEMO_DATA: "on" };
if (env.DATABASE_URL) {
  await adminQuery(env.DATABASE_URL, `DROP DATABASE IF EXISTS "shortcut_audit_e2e" WITH (FORCE)`);
  await adminQuery(env.DATABASE_URL, `CREATE DATABASE "shortcut_audit_e2e"`);
  env.DATABASE_URL = withDatabase(env.DATABASE_URL, "shortcut_audit_e2e");
} else {
  env.PGLITE_DIR = ".data/e2e-pglite";
  fs.rmSync(env.PGLITE_DIR, { recursive: true, force: true });
}
execFileSync(process.execPath, ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
const server = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
  stdio: "inherit",
  env,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
