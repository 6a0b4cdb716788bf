// Two app processes on one PostgreSQL database, as two machines behind a proxy would run: a label
// saved through one is seen at once through the other; the sign-in rate limit counts across both;
// a figure cached by one is fresh after a write through the other. Its own database on the
// PostgreSQL server every session and CI have (DATABASE_URL's server, else 127.0.0.1:5432).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { adminQuery, withDatabase } from "../test/test-db";
import { expect, importRecords, test, unique } from "./fixtures";
import { e2eAccount } from "./roles";
import { drawStudyOfOne } from "./studies";

const SERVER = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "shortcut_audit_two_processes";
const url = withDatabase(SERVER, DATABASE);
const PORTS = [3111, 3112] as const;
const [A, B] = PORTS.map((p) => `http://127.0.0.1:${p}`) as [string, string];
// The servers trust X-Forwarded-For from loopback, so each part of the test signs in from an address of its own.
const env = (port: number) => ({
  ...process.env,
  DATABASE_URL: url,
  DEMO_DATA: "off",
  PORT: String(port),
  TRUST_PROXY: "loopback",
  NODE_ENV: "production" as const,
  NEXT_TELEMETRY_DISABLED: "1",
});
const servers: ChildProcess[] = [];

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await adminQuery(SERVER, `DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
  await adminQuery(SERVER, `CREATE DATABASE "${DATABASE}"`);
  const tsx = ["--conditions=react-server", "--import", "tsx"];
  const accounts = spawnSync(process.execPath, [...tsx, "scripts/e2e-accounts.ts"], {
    env: env(PORTS[0]),
    stdio: "inherit",
  });
  expect(accounts.status).toBe(0);
  for (const port of PORTS) {
    const server = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts"], { env: env(port) });
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      let said = "";
      server.stderr!.on("data", (d: Buffer) => {
        said += d.toString();
        if (said.includes("serving on")) resolve();
      });
      server.on("exit", (code) => reject(new Error(`server on ${port} ended (${code}): ${said}`)));
    });
  }
});

test.afterAll(async () => {
  for (const s of servers) s.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  await adminQuery(SERVER, `DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
});

async function signIn(request: APIRequestContext, base: string, address: string, password: string) {
  const account = e2eAccount("RESEARCHER");
  const res = await request.post(`${base}/api/auth/sign-in/email`, {
    data: { email: account.email, password },
    headers: { origin: base, "x-forwarded-for": address },
  });
  return res.status();
}

test("a label saved through one process is seen through the other; a cached figure is fresh after a write", async ({
  browser,
}) => {
  // One signed-in browser: the session cookie is the host's, so it is good on both ports.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, baseURL: A });
  expect(await signIn(context.request, A, "10.0.0.1", e2eAccount("RESEARCHER").password)).toBe(200);
  const page = await context.newPage();
  const benchmark = unique("two");
  await importRecords(
    context.request,
    `${benchmark}.jsonl`,
    [
      trajectoryFixture({ id: `${benchmark}-0`, benchmark, task: { id: "owner__repo-1" } }),
      ...["j1", "j2", "j3"].map((j) => voteFixture(`${benchmark}-0`, j, { UPSTREAM: "SUCCESSFUL" })),
    ],
    A,
  );

  // A figure computed and kept by B: one judged trajectory.
  const judged = async () => {
    await page.goto(`${B}/results`);
    return page
      .getByRole("link", { name: /^judged of model-a, network on, vanilla/ })
      .first()
      .textContent();
  };
  expect(await judged()).toBe("1");

  // A study labelled through A; B shows the label at once.
  const study = unique("two-study");
  await drawStudyOfOne(page, { name: study, benchmark, labellers: [e2eAccount("RESEARCHER").handle], blind: false });
  await page.goto(`${A}/queue`);
  await page.getByRole("row").filter({ hasText: study }).getByRole("link", { name: "Start →" }).click();
  await expect(page.getByText(/item 1 of 1/)).toBeVisible();
  await page.locator("body").click();
  for (const key of ["n", "n", "n", "n"]) await page.keyboard.press(key);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`^${A}/queue$`));
  await page.goto(`${B}/studies`);
  await expect(page.getByRole("row").filter({ hasText: study })).toContainText(
    `${e2eAccount("RESEARCHER").handle} 1/1`,
  );

  // A write through A: B's kept figure is not served stale.
  await importRecords(
    context.request,
    `${benchmark}-more.jsonl`,
    [
      trajectoryFixture({ id: `${benchmark}-1`, benchmark, task: { id: "owner__repo-2" } }),
      ...["j1", "j2", "j3"].map((j) => voteFixture(`${benchmark}-1`, j)),
    ],
    A,
  );
  expect(await judged()).toBe("2");
  await context.close();
});

test("the sign-in rate limit counts attempts through both processes", async ({ playwright }) => {
  const request = await playwright.request.newContext();
  // Ten attempts from one address, alternating processes: wrong passwords, refused (401).
  const statuses = [];
  for (let i = 0; i < 10; i++) statuses.push(await signIn(request, i % 2 ? B : A, "10.0.0.2", "wrong password"));
  expect(statuses).toEqual(Array(10).fill(401));
  // The eleventh, through either, is over the limit, even with the right password.
  expect(await signIn(request, A, "10.0.0.2", e2eAccount("RESEARCHER").password)).toBe(429);
  expect(await signIn(request, B, "10.0.0.2", e2eAccount("RESEARCHER").password)).toBe(429);
  // Another address has its own count.
  expect(await signIn(request, B, "10.0.0.3", e2eAccount("RESEARCHER").password)).toBe(200);
  await request.dispose();
});

test("asked for several processes on the embedded database, the server says it runs one", async () => {
  const { DATABASE_URL: _, ...rest } = env(3113);
  const dir = `.data/two-processes-pglite-${Date.now()}`;
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts"], {
    env: { ...rest, WEB_CONCURRENCY: "3", PGLITE_DIR: dir },
  });
  const said = await new Promise<string>((resolve) => {
    let text = "";
    server.stderr!.on("data", (d: Buffer) => {
      text += d.toString();
      if (text.includes("serving on")) resolve(text);
    });
    server.on("exit", () => resolve(text));
  });
  server.kill("SIGTERM");
  if (server.exitCode === null && server.signalCode === null) await new Promise((r) => server.once("exit", r));
  fs.rmSync(dir, { recursive: true, force: true });
  expect(said).toContain("WEB_CONCURRENCY=3: the embedded database admits one process, so the app serves with one");
  expect(said).not.toContain("with 3 processes");
});

test("pages are kept per viewer until their data change, each sent with a nonce of its own", async ({ playwright }) => {
  const as = async (role: "RESEARCHER" | "REVIEWER" | "ANNOTATOR", address: string) => {
    const request = await playwright.request.newContext();
    const account = e2eAccount(role);
    const res = await request.post(`${A}/api/auth/sign-in/email`, {
      data: { email: account.email, password: account.password },
      headers: { origin: A, "x-forwarded-for": address },
    });
    expect(res.status()).toBe(200);
    return request;
  };
  const researcher = await as("RESEARCHER", "10.0.1.1");
  const reviewer = await as("REVIEWER", "10.0.1.2");
  const annotator = await as("ANNOTATOR", "10.0.1.3");
  const get = async (who: APIRequestContext, base: string, path: string) => {
    const res = await who.get(`${base}${path}`, { maxRedirects: 0 });
    const body = await res.text();
    const nonce = res.headers()["content-security-policy"]?.match(/'nonce-([^']+)'/)?.[1];
    return { status: res.status(), cache: res.headers()["x-page-cache"], body, nonce };
  };

  const first = await get(researcher, A, "/results");
  const second = await get(researcher, A, "/results");
  expect([first.status, first.cache, second.status, second.cache]).toEqual([200, "miss", 200, "hit"]);
  // The kept page is sent with a new nonce, the same in its policy and on its scripts.
  expect(second.nonce).toBeTruthy();
  expect(second.nonce).not.toBe(first.nonce);
  expect(second.body).toContain(`nonce="${second.nonce}"`);
  expect(second.body).not.toContain(first.nonce!);
  // Another viewer never gets it: the reviewer's own render has no researcher's controls.
  const review = await get(reviewer, A, "/results");
  expect(review.cache).toBe("miss");
  expect(first.body).toContain('href="/import"');
  expect(review.body).not.toContain('href="/import"');
  expect(review.body).not.toContain('href="/people"');
  // An annotator (who reads no results) is refused, never served a kept page.
  const refused = await get(annotator, A, "/results");
  expect([refused.status, refused.cache]).toEqual([403, "miss"]);
  expect(refused.body).not.toContain("Result table");

  // A write (a trajectory and its votes) makes the page render anew, here and in the other process.
  const benchmark = unique("kept");
  await importRecords(
    researcher,
    `${benchmark}.jsonl`,
    [
      trajectoryFixture({ id: `${benchmark}-0`, benchmark, task: { id: "owner__repo-1" } }),
      ...["j1", "j2", "j3"].map((j) => voteFixture(`${benchmark}-0`, j)),
    ],
    A,
  );
  const after = await get(researcher, B, "/results");
  expect(after.body).toContain(benchmark);
  const again = await get(researcher, A, "/results");
  expect([again.cache, again.body.includes(benchmark)]).toEqual(["miss", true]);
  // Nor a kept timeline (a researcher's, with the judges' reasons): the annotator is refused it too.
  const list = await get(researcher, A, `/trajectories?benchmark=${benchmark}`);
  const timeline = list.body.match(/href="(\/trajectories\/\d+)"/)![1]!;
  await get(researcher, A, timeline);
  const kept = await get(researcher, A, timeline);
  expect([kept.status, kept.cache]).toEqual([200, "hit"]);
  const blind = await get(annotator, A, timeline);
  expect([blind.status, blind.cache]).toEqual([403, "miss"]);
  expect(blind.body).not.toContain("says so");
  for (const r of [researcher, reviewer, annotator]) await r.dispose();
});
