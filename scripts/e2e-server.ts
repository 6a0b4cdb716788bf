// The server the Playwright journeys run against: the real start path (build when stale, migrate,
// demo data, next start) on a database of its own, made fresh each run so journeys see known data.
// With DATABASE_URL: a database named shortcut_audit_e2e on that server; otherwise PGlite in .data/e2e-pglite.

import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { E2E_SERVER_LOG } from "@/e2e/server-log";
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
execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/e2e-accounts.ts"], {
  stdio: "inherit",
  env,
});
// The server's output goes to this process's (Playwright shows it) and to a log file that the
// journeys read after each test: an error the app logs fails the test that caused it (e2e/fixtures.ts).
fs.mkdirSync(".data", { recursive: true });
const log = fs.createWriteStream(E2E_SERVER_LOG, { flags: "w" });
const server = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
  stdio: ["ignore", "pipe", "pipe"],
  env,
});
server.stdout!.on("data", (d: Buffer) => {
  process.stdout.write(d);
  log.write(d);
});
server.stderr!.on("data", (d: Buffer) => {
  process.stderr.write(d);
  log.write(d);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
