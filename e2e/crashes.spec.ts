// A crash contained and recovered: the app's server process is killed (SIGKILL, as memory running
// out kills it) at each point where it holds work, and the primary starts another. An import killed
// midway is listed as interrupted, its upload folder gone; a judge request whose worker keeps dying
// while asking it is asked three times at most, then failed with the reason, and the run ends. Its
// own database on the PostgreSQL server every session and CI have (DATABASE_URL's, else 127.0.0.1).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import pg from "pg";
import { trajectoryFixture } from "../prisma/factories";
import { adminQuery, withDatabase } from "../test/test-db";
import { expect, test } from "./fixtures";
import { e2eAccount } from "./roles";

const SERVER = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "shortcut_audit_crashes";
const url = withDatabase(SERVER, DATABASE);
const PORT = 3114;
const BASE = `http://127.0.0.1:${PORT}`;
const env = {
  ...process.env,
  DATABASE_URL: url,
  DEMO_DATA: "off",
  PORT: String(PORT),
  NODE_ENV: "production" as const,
  NEXT_TELEMETRY_DISABLED: "1",
};
const tsx = ["--conditions=react-server", "--import", "tsx"];

let primary: ChildProcess | null = null;
let said = "";
const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
};

/** Waits for `check` to hold, polling; fails with `what` after `ms`. */
async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`waited ${ms / 1000} s for ${what}; the server said:\n${said.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The server process the primary runs now (its one child). */
function workerPid(): number | null {
  try {
    const kids = fs.readFileSync(`/proc/${primary!.pid}/task/${primary!.pid}/children`, "utf8").trim();
    return kids ? Number(kids.split(/\s+/)[0]) : null;
  } catch {
    return null;
  }
}

const serving = () =>
  fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.ok,
    () => false,
  );

/** Kills the server process (not the primary) and waits for the primary's next one to serve. */
async function killWorker(): Promise<void> {
  const pid = workerPid();
  expect(pid).not.toBeNull();
  const before = (said.match(/serving/g) ?? []).length;
  process.kill(pid!, "SIGKILL");
  await until("the server started again", async () => (said.match(/serving/g) ?? []).length > before && serving());
  expect(workerPid()).not.toBe(pid);
}

function cli(...args: string[]) {
  return spawn(process.execPath, [...tsx, "scripts/cli.ts", ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
}

test.describe.configure({ timeout: 180_000, mode: "serial" });

// A provider that never answers: whatever asks it is still asking when it is killed.
const hanging = http.createServer(() => {});
let hangingUrl = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await adminQuery(SERVER, `DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
  await adminQuery(SERVER, `CREATE DATABASE "${DATABASE}"`);
  expect(spawnSync(process.execPath, [...tsx, "scripts/e2e-accounts.ts"], { env, stdio: "inherit" }).status).toBe(0);
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/v1`;
});

test.afterAll(async () => {
  primary?.kill("SIGTERM");
  hanging.closeAllConnections();
  hanging.close();
  await new Promise((r) => setTimeout(r, 1000));
  await adminQuery(SERVER, `DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
});

test("a judge request whose worker keeps dying is asked three times at most, then failed with the reason", async () => {
  // One trajectory and a judge at the provider that never answers, run from the command line,
  // which is killed while it asks (the first time the request was claimed).
  const file = `${os.tmpdir()}/crash-judge.jsonl`;
  fs.writeFileSync(file, `${JSON.stringify(trajectoryFixture({ id: "crash-j", benchmark: "crash-judge" }))}\n`);
  const imported = cli("import", file);
  expect(await new Promise((r) => imported.on("exit", r))).toBe(0);
  const added = cli("judge", "add", "hang", "--base-url", hangingUrl, "--model", "m");
  expect(await new Promise((r) => added.on("exit", r))).toBe(0);
  const run = cli("judge", "run", "hang", "--benchmark", "crash-judge");
  const attempts = () =>
    query<{ attempts: number; status: string; error: string | null }>(
      `SELECT attempts, status, error FROM judge_request r JOIN judge j ON j.id = r."judgeId" WHERE j.name = 'hang'`,
    ).then((rows) => rows[0]);
  await until("the command line asking", async () => (await attempts())?.status === "ASKING");
  run.kill("SIGKILL");

  // The app resumes the running run at start: asked a second time; killed; a third; killed.
  primary = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  primary.stderr!.on("data", (d: Buffer) => {
    said += d.toString();
  });
  await until("the server serving", serving);
  for (const n of [2, 3]) {
    await until(`claim ${n}`, async () => {
      const r = await attempts();
      return r?.attempts === n && r.status === "ASKING";
    });
    await killWorker();
  }
  // The server that starts after the third is not brought down again: the request fails, the run ends.
  const failed = await until("the request failed", async () => {
    const r = await attempts();
    return r?.status === "FAILED" ? r : null;
  });
  expect(failed).toEqual({
    attempts: 3,
    status: "FAILED",
    error:
      "asked 3 times, and each time the worker stopped before the answer was stored (it may have run out of " +
      "memory); not asked again",
  });
  expect((await query<{ status: string }>(`SELECT status FROM judge_run`))[0]!.status).toBe("DONE");
  expect(await serving()).toBe(true);
});

test("an import killed midway is listed as interrupted and its upload folder is removed", async ({ playwright }) => {
  const request = await playwright.request.newContext();
  const account = e2eAccount("RESEARCHER");
  const signedIn = await request.post(`${BASE}/api/auth/sign-in/email`, {
    data: { email: account.email, password: account.password },
    headers: { origin: BASE },
  });
  expect(signedIn.status()).toBe(200);
  // Enough records that the import is still writing when the server is killed.
  const records = Array.from({ length: 40_000 }, (_, i) =>
    JSON.stringify(trajectoryFixture({ id: `crash-i-${i}`, benchmark: "crash-import", task: { id: "t" }, run: i + 1 })),
  );
  const upload = request
    .post(`${BASE}/api/imports`, {
      multipart: {
        file: { name: "crash.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(records.join("\n")) },
      },
      headers: { origin: BASE },
      timeout: 60_000,
    })
    .catch((e: unknown) => e);
  const running = await until("the import running", async () => {
    const rows = await query<{ id: number }>(
      `SELECT id FROM "import" WHERE "fileName" = 'crash.jsonl' AND status = 'RUNNING'`,
    );
    return rows[0] ?? null;
  });
  const pid = workerPid();
  const folders = () => fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith(`shortcut-audit-upload-${pid}-`));
  expect(folders()).toHaveLength(1);
  await killWorker();
  await upload; // cut off with the server: the browser would say the upload failed
  // Marked by the next server at its start (or, had the dead connection lingered, its sweep each minute).
  const row = await until(
    "the import marked",
    async () =>
      (
        await query<{ status: string; errors: Array<{ message: string }> }>(
          `SELECT status, errors FROM "import" WHERE id = $1 AND status = 'FAILED'`,
          [running.id],
        )
      )[0],
    70_000,
  );
  expect(row.status).toBe("FAILED");
  expect(row.errors[0]!.message).toMatch(/^interrupted: the process importing it stopped before it finished/);
  expect(folders()).toEqual([]);
  expect(
    (await query(`SELECT 1 FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" WHERE b.name = 'crash-import'`))
      .length,
  ).toBe(0);
  // The Import page lists it with the reason.
  const page = await request.get(`${BASE}/import`);
  expect(await page.text()).toContain("interrupted: the process importing it stopped");
  await request.dispose();
});
