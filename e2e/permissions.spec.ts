import { request as newRequest } from "@playwright/test";
import { trajectoryFixture } from "../prisma/factories";
import { expect, expectErrors, importRecords, test, unique } from "./fixtures";
import { e2eAccount, stateFile } from "./roles";

// Every page and route, for each role and for a signed-out visitor, answered by the server itself
// (no browser UI involved). Expected answers written out by hand from the issue: researchers do
// everything, annotators only their queue, reviewers read results and agreement and write nothing.
// The trajectories it opens are its own, imported first.

type Who = "RESEARCHER" | "ANNOTATOR" | "REVIEWER" | "SIGNED_OUT";
const WHO: Who[] = ["RESEARCHER", "ANNOTATOR", "REVIEWER", "SIGNED_OUT"];

// [method, path, researcher, annotator, reviewer, signed out]; A and B: the ids of two trajectories.
const MATRIX: Array<[string, string, number, number, number, number]> = [
  ["GET", "/", 200, 307, 200, 307], // an annotator is sent to their queue
  ["GET", "/trajectories", 200, 403, 200, 307],
  ["GET", "/trajectories/A", 200, 403, 200, 307],
  ["GET", "/compare?a=A&b=B", 200, 403, 200, 307],
  ["GET", "/compare?ids=A,B", 200, 403, 200, 307],
  // Frozen reports: read by researchers and reviewers; a link's token opens one report to anyone.
  ["GET", "/reports", 200, 403, 200, 307],
  ["GET", "/reports/999999", 404, 403, 404, 307],
  ["GET", "/reports/999999/download?what=results&format=json", 404, 403, 404, 401],
  ["GET", `/r/${"x".repeat(43)}`, 404, 404, 404, 404],
  ["GET", `/r/${"x".repeat(43)}/download?what=results&format=json`, 404, 404, 404, 404],
  ["GET", "/results", 200, 403, 200, 307],
  ["GET", "/agreement", 200, 403, 200, 307],
  ["GET", "/import", 200, 403, 403, 307],
  ["GET", "/studies", 200, 403, 200, 307],
  ["GET", "/studies/new", 200, 403, 403, 307],
  ["GET", "/people", 200, 403, 403, 307],
  // Judges: researchers run and change them; reviewers read the page (the categories among it).
  ["GET", "/judges", 200, 403, 200, 307],
  // Rules: researchers write them, reviewers read them.
  ["GET", "/rules", 200, 403, 200, 307],
  ["GET", "/rules?rule=git-reflog", 200, 403, 200, 307],
  // A rule being tried, as a list filter (a preview's counts): for those who write rules; a pattern
  // that does not compile is a bad address.
  ["GET", "/trajectories?tryOn=command&tryPattern=pip", 200, 403, 403, 307],
  ["GET", "/trajectories?tryOn=output&tryPattern=(", 404, 403, 403, 307],
  // Panels compared: read as results are; adopting one is the Judges page's.
  ["GET", "/judges/compare?panel=initial", 200, 403, 200, 307],
  ["GET", "/api/panels/compare?panel=initial&format=json", 200, 403, 200, 401],
  ["GET", "/api/panels/compare?panel=nobody", 404, 403, 404, 401],
  ["GET", "/api/panels/compare?panel=%00", 400, 403, 400, 401],
  ["GET", "/queue", 200, 200, 403, 307],
  // Not an item of theirs: labellers are sent back to their queue.
  ["GET", "/queue/999/0", 307, 307, 403, 307],
  // Adjudicating: researchers and reviewers; an item that is not one of the study's is not found.
  ["GET", "/review", 200, 403, 200, 307],
  ["GET", "/review/999999/1", 404, 403, 404, 307],
  ["GET", "/api/results?format=json", 200, 403, 200, 401],
  ["GET", "/api/agreement?format=csv", 200, 403, 200, 401],
  ["GET", "/trajectories/A/text?seq=0", 200, 403, 200, 401],
  // The researcher passes the permission check and meets the next one (not multipart: 415).
  ["POST", "/api/imports", 415, 403, 403, 401],
  ["GET", "/api/health", 200, 200, 200, 200],
  // The HTTP API takes a bearer token only: a session cookie opens nothing there.
  ["GET", "/api/v1/results?format=json", 401, 401, 401, 401],
  ["GET", "/api/v1/agreement", 401, 401, 401, 401],
  ["GET", "/api/v1/evidence", 401, 401, 401, 401],
  ["GET", "/api/v1/trajectories", 401, 401, 401, 401],
  ["GET", "/api/v1/trajectories/A", 401, 401, 401, 401],
  ["GET", "/api/v1/rules/test?name=git-reflog", 401, 401, 401, 401],
  ["POST", "/api/v1/imports", 401, 401, 401, 401],
  // Its description holds no data: open to all.
  ["GET", "/api/v1/openapi.json", 200, 200, 200, 200],
  // One's own API tokens: every role.
  ["GET", "/tokens", 200, 200, 200, 307],
  ["GET", "/sign-in", 307, 307, 307, 200],
];

let ids: { A: number; B: number };

test.beforeAll(async ({ baseURL }) => {
  const researcher = await newRequest.newContext({ baseURL, storageState: stateFile("RESEARCHER") });
  const benchmark = unique("permissions");
  await importRecords(researcher, `${benchmark}.jsonl`, [
    trajectoryFixture({ id: `${benchmark}-a`, benchmark, task: { id: "owner__repo-1" } }),
    trajectoryFixture({ id: `${benchmark}-b`, benchmark, task: { id: "owner__repo-1" }, run: 2 }),
  ]);
  const list = await (await researcher.get(`/trajectories?benchmark=${benchmark}&sort=run`)).text();
  const found = [...new Set([...list.matchAll(/href="\/trajectories\/(\d+)"/g)].map((m) => Number(m[1])))];
  expect(found).toHaveLength(2);
  ids = { A: found[0]!, B: found[1]! };
  await researcher.dispose();
});

const withIds = (path: string) => path.replace(/\bA\b/, String(ids.A)).replace(/\bB\b/, String(ids.B));

for (const [column, who] of WHO.entries()) {
  test(`what ${who === "SIGNED_OUT" ? "a signed-out visitor" : `the ${who.toLowerCase()}`} may open`, async ({
    baseURL,
  }) => {
    const api = await newRequest.newContext({
      baseURL,
      storageState: who === "SIGNED_OUT" ? { cookies: [], origins: [] } : stateFile(who),
      maxRedirects: 0,
    });
    const answers = [];
    for (const [method, path, ...expected] of MATRIX) {
      const res = await api.fetch(withIds(path), {
        method,
        headers: method === "POST" ? { "content-type": "text/plain", origin: baseURL! } : {},
        data: method === "POST" ? "x" : undefined,
      });
      answers.push([method, path, res.status(), expected[column]]);
      if (res.status() === 307 && who === "SIGNED_OUT" && path !== "/sign-in")
        expect(res.headers().location).toMatch(/^\/sign-in\?next=/);
      if (who === "ANNOTATOR" && path === "/") expect(res.headers().location).toBe("/queue");
    }
    // One comparison for the whole column, so a failure lists every wrong answer.
    expect(answers.filter(([, , got, want]) => got !== want)).toEqual([]);
    await api.dispose();
  });
}

test("a forged cross-site sign-in is refused, and every sign-in makes a new session token", async ({ baseURL }) => {
  expectErrors(/\[Better Auth\]: Invalid origin: http:\/\/evil\.example/);
  const account = e2eAccount("REVIEWER");
  const api = await newRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const body = { email: account.email, password: account.password };
  const forged = await api.post("/api/auth/sign-in/email", { data: body, headers: { origin: "http://evil.example" } });
  expect(forged.status()).toBe(403);

  // Session fixation: a token planted before sign-in is not the one the server hands out, nor valid.
  const host = new URL(baseURL!).hostname;
  const planted = "planted-token-0000000000000000.c2lnbmF0dXJl";
  const context = await newRequest.newContext({
    baseURL,
    storageState: {
      cookies: [
        {
          name: "better-auth.session_token",
          value: planted,
          domain: host,
          path: "/",
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: "Lax",
        },
      ],
      origins: [],
    },
  });
  expect((await context.get("/api/results?format=json")).status()).toBe(401);
  const signIn = await context.post("/api/auth/sign-in/email", { data: body, headers: { origin: baseURL! } });
  expect(signIn.status()).toBe(200);
  const issued = /better-auth\.session_token=([^;]+)/.exec(signIn.headers()["set-cookie"] ?? "");
  const token = decodeURIComponent(issued![1]!);
  expect(token).not.toBe(planted);
  expect((await context.get("/api/results?format=json")).status()).toBe(200);

  // Signing out ends the session on the server: the old token no longer opens anything.
  expect((await context.post("/api/auth/sign-out", { data: {}, headers: { origin: baseURL! } })).status()).toBe(200);
  const replay = await newRequest.newContext({
    baseURL,
    storageState: {
      cookies: [
        {
          name: "better-auth.session_token",
          value: token,
          domain: host,
          path: "/",
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: "Lax",
        },
      ],
      origins: [],
    },
  });
  expect((await replay.get("/api/results?format=json")).status()).toBe(401);
  await Promise.all([api.dispose(), context.dispose(), replay.dispose()]);
});

test("a server action posted from another site is refused; from this site it runs", async ({ baseURL }) => {
  expectErrors(/⨯ Error: Invalid Server Actions request\./);
  // A session of its own (signing out must not end the journeys' shared one).
  const account = e2eAccount("REVIEWER");
  const api = await newRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] }, maxRedirects: 0 });
  expect(
    (
      await api.post("/api/auth/sign-in/email", {
        data: { email: account.email, password: account.password },
        headers: { origin: baseURL! },
      })
    ).status(),
  ).toBe(200);
  // The sign-out form's action id, as the page sends it to the browser.
  const html = await (await api.get("/results")).text();
  const actionId = /name="\$ACTION_ID_([0-9a-f]+)"/.exec(html)![1]!;
  const signOut = (origin: string) =>
    api.post("/results", { multipart: { [`$ACTION_ID_${actionId}`]: "" }, headers: { origin } });

  const forged = await signOut("http://evil.example");
  expect(forged.status()).toBeGreaterThanOrEqual(400);
  expect((await api.get("/api/results?format=json")).status()).toBe(200); // still signed in

  const genuine = await signOut(baseURL!);
  expect(genuine.status()).toBeLessThan(400);
  expect((await api.get("/api/results?format=json")).status()).toBe(401); // signed out
  await api.dispose();
});

// Last in this file: it spends this address's sign-in attempts for a minute (later journeys reuse
// the signed-in states of auth.setup.ts and do not sign in again).
test("guessing passwords is cut off after 10 attempts a minute from one address", async ({ baseURL }) => {
  const api = await newRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < 11; i++) {
    const res = await api.post("/api/auth/sign-in/email", {
      data: { email: e2eAccount("RESEARCHER").email, password: `wrong-${i}` },
      headers: { origin: baseURL! },
    });
    statuses.push(res.status());
    retryAfter ??= res.headers()["x-retry-after"];
  }
  // Wrong passwords answer 401 until the limit; then 429 with the seconds to wait.
  expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  expect(statuses.at(-1)).toBe(429);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  // Even the right password waits.
  const account = e2eAccount("RESEARCHER");
  expect(
    (
      await api.post("/api/auth/sign-in/email", {
        data: { email: account.email, password: account.password },
        headers: { origin: baseURL! },
      })
    ).status(),
  ).toBe(429);
  await api.dispose();
});
