// What one request may do (issue: the holes a probe found). Each test sends what an attacker or a
// careless client would, against the real server, and checks the answer and what was left behind.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import zlib from "node:zlib";
import type { APIRequestContext } from "@playwright/test";
import { trajectoryFixture } from "../prisma/factories";
import { expect, expectErrors, test } from "./fixtures";
import { e2eAccount, APP_ORIGIN as ORIGIN, stateFile } from "./roles";

const PORT = Number(new URL(ORIGIN).port);

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request over a socket bound to `local` (another loopback address is another client). */
function rawRequest(opts: {
  local?: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        localAddress: opts.local,
        method: opts.method ?? "GET",
        path: opts.path,
        headers: opts.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

const signIn = (local: string, password: string, forwardedFor?: string) =>
  rawRequest({
    local,
    method: "POST",
    path: "/api/auth/sign-in/email",
    headers: {
      "content-type": "application/json",
      origin: ORIGIN,
      ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
    },
    body: JSON.stringify({ email: e2eAccount("REVIEWER").email, password }),
  }).then((r) => r.status);

/** The Cookie header of a role's signed-in browser state (auth.setup.ts). */
function cookieOf(role: "RESEARCHER" | "REVIEWER"): string {
  const state = JSON.parse(fs.readFileSync(stateFile(role), "utf8")) as {
    cookies: Array<{ name: string; value: string }>;
  };
  return state.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

function multipart(name: string, content: Buffer, boundary = "----e2e-boundary"): { body: Buffer; type: string } {
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
    `filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

const uploadDirs = () =>
  fs
    .readdirSync(os.tmpdir())
    .filter((d) => d.startsWith("shortcut-audit-upload-"))
    .sort();

async function importRow(request: APIRequestContext, fileName: string): Promise<string | null> {
  const html = await (await request.get("/import")).text();
  const at = html.indexOf(fileName);
  return at === -1 ? null : html.slice(at, at + 2000);
}

test(
  "the sign-in limit keys on the socket's address: a forged X-Forwarded-For neither escapes it nor locks " +
    "others out",
  async () => {
    const guesses: number[] = [];
    for (let i = 0; i < 11; i++) guesses.push(await signIn("127.0.0.21", `wrong-${i}`));
    expect(guesses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(guesses[10]).toBe(429);
    // Thirty more, each claiming another address: still this socket's bucket.
    const forged: number[] = [];
    for (let i = 0; i < 30; i++) forged.push(await signIn("127.0.0.21", `wrong-more-${i}`, `198.51.100.${i + 1}`));
    expect(new Set(forged)).toEqual(new Set([429]));
    expect(await signIn("127.0.0.21", e2eAccount("REVIEWER").password, "203.0.113.99")).toBe(429);

    // Junk in the header lands in the sender's own bucket, not one shared by everyone.
    for (let i = 0; i < 11; i++) await signIn("127.0.0.22", `wrong-${i}`, "not an address, at all");
    expect(await signIn("127.0.0.22", e2eAccount("REVIEWER").password, "not an address, at all")).toBe(429);
    expect(await signIn("127.0.0.23", e2eAccount("REVIEWER").password, "not an address, at all")).toBe(200);
    expect(await signIn("127.0.0.24", e2eAccount("REVIEWER").password)).toBe(200);
  },
);

test("an import from another site, or with no Origin, is refused and imports nothing", async ({
  page,
  request,
  baseURL,
}) => {
  // The browser reports the refused fetch (its connection may be reset: the app answers 403 without
  // reading a body it refuses), and the page's own origin has no favicon (refused once it closes).
  expectErrors(/status of 403 \(Forbidden\)/, /net::ERR_CONNECTION_REFUSED/, /net::ERR_CONNECTION_RESET/);
  const file = (name: string) => ({
    file: {
      name,
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(
        `${JSON.stringify(trajectoryFixture({ id: name, benchmark: "e2e-csrf", task: { id: "csrf" } }))}\n`,
      ),
    },
  });
  const foreign = await request.post("/api/imports", {
    multipart: file("csrf-foreign.jsonl"),
    headers: { origin: "http://evil.example" },
  });
  expect(foreign.status()).toBe(403);
  expect((await foreign.json()).error).toMatch(/did not come from this app's pages/);
  const none = await request.post("/api/imports", { multipart: file("csrf-none.jsonl") });
  expect(none.status()).toBe(403);

  // A page served on another port of the same host (same site: the session cookie rides along).
  const fixture = trajectoryFixture({ id: "csrf-port", benchmark: "e2e-csrf", task: { id: "csrf" } });
  const record = `${JSON.stringify(fixture)}\n`;
  const evil = http.createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end(`<!doctype html><script>
      const form = new FormData();
      form.append("file", new Blob([${JSON.stringify(record)}]), "csrf-port.jsonl");
      fetch("${ORIGIN}/api/imports", { method: "POST", mode: "no-cors", credentials: "include", body: form })
        .then(() => document.title = "sent", () => document.title = "failed");
    </script>`);
  });
  await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
  const evilPort = (evil.address() as { port: number }).port;
  try {
    const answered = page.waitForResponse((r) => r.url() === `${ORIGIN}/api/imports`);
    await page.goto(`http://127.0.0.1:${evilPort}/`);
    const response = await answered;
    expect(response.status()).toBe(403);
  } finally {
    evil.close();
  }
  for (const name of ["csrf-foreign.jsonl", "csrf-none.jsonl", "csrf-port.jsonl"])
    expect(await importRow(request, name)).toBeNull();
  await page.goto(`${baseURL}/trajectories?benchmark=e2e-csrf`);
  await expect(page.getByRole("status")).toHaveText(/^0 /);
});

test("a client cut off mid-upload: listed as failed with the reason, nothing lands, no file left", async ({
  request,
  page,
}) => {
  const before = uploadDirs();
  const name = "e2e-cut-off.jsonl";
  const records = Array.from({ length: 200 }, (_, i) =>
    JSON.stringify(trajectoryFixture({ id: `cut-${i}`, benchmark: "e2e-cut", task: { id: "cut" }, run: i + 1 })),
  ).join("\n");
  const { body, type } = multipart(name, Buffer.from(records));
  await new Promise<void>((resolve) => {
    const req = http.request({
      host: "127.0.0.1",
      port: PORT,
      method: "POST",
      path: "/api/imports",
      headers: {
        cookie: cookieOf("RESEARCHER"),
        origin: ORIGIN,
        "content-type": type,
        "content-length": String(body.length),
      },
    });
    req.on("error", () => resolve());
    // Half the body, then the client dies.
    req.write(body.subarray(0, Math.floor(body.length / 2)), () =>
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300),
    );
  });
  await expect.poll(() => importRow(request, name), { timeout: 10_000 }).toContain("the upload was cut off after");
  expect(await importRow(request, name)).toContain("rejected");
  await expect.poll(uploadDirs).toEqual(before);
  await page.goto("/trajectories?benchmark=e2e-cut");
  await expect(page.getByRole("status")).toHaveText(/^0 /);
});

test("a gzip bomb sent to the Import page's route is refused by name, quickly, and the app answers throughout", async ({
  request,
}) => {
  const bomb = zlib.gzipSync(Buffer.alloc(256 * 1024 * 1024), { level: 9 });
  expect(bomb.length).toBeLessThan(1024 * 1024);
  let healthy = 0;
  let unhealthy = 0;
  let done = false;
  const probe = (async () => {
    while (!done) {
      const r = await rawRequest({ path: "/api/health" }).catch(() => null);
      if (r?.status === 200) healthy += 1;
      else unhealthy += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = Date.now();
  const res = await request.post("/api/imports", {
    multipart: { file: { name: "e2e-bomb.jsonl.gz", mimeType: "application/gzip", buffer: bomb } },
    headers: { origin: ORIGIN },
  });
  const answer = await res.text();
  done = true;
  await probe;
  expect(res.status()).toBe(200);
  expect(answer).toMatch(/decompression bomb: this .* compressed file expands to more than 100 times its size/);
  expect(Date.now() - started).toBeLessThan(15_000);
  expect(healthy).toBeGreaterThan(0);
  expect(unhealthy).toBe(0);
  expect(await importRow(request, "e2e-bomb.jsonl.gz")).toContain("decompression bomb");
});

test("bad parameters get 4xx, never 500", async ({ request }) => {
  const urls = [
    "/trajectories?benchmark=swe%00bench",
    "/trajectories?model=%00",
    "/trajectories?task=a%00b",
    "/trajectories?judge=%00",
    "/trajectories/2147483648",
    "/trajectories/99999999999999999999",
    "/trajectories/-1",
    "/trajectories/1e3",
    "/queue/2147483648/0",
    "/queue/0/2147483648",
    "/trajectories?run=2147483648",
    "/trajectories?page=2147483648",
    "/trajectories/1/text?seq=2147483648",
    "/trajectories/1/text?seq=0&call=99999999999",
    "/compare?a=2147483648&b=1",
    "/api/results?format=toString",
    "/api/agreement?format=__proto__",
    "/api/agreement?format=json&study=no%20such%20study",
    `/api/agreement?format=json&study=${"x".repeat(5000)}`,
    "/agreement?study=no%20such%20study",
    "/agreement?study=%00",
    "/review?study=%00",
    "/agreement/labels?group=nonsense&q=attempt&cell=both_positive",
    "/agreement/labels?group=all&q=maybe&cell=both_positive",
    "/agreement/labels?group=all&q=attempt&cell=__proto__",
    "/agreement/labels?group=all&q=attempt&cell=both_positive&study=%00",
    "/review/1/%00",
    "/review/2147483648/1",
    "/compare?ids=1,1",
    "/compare?ids=1",
    `/compare?ids=${Array.from({ length: 13 }, (_, i) => i + 1).join(",")}`,
    "/compare?ids=1,x",
    `/compare?ids=${"1,".repeat(200)}1`,
    "/reports/2147483648",
    "/reports/x",
    "/reports/1/download?what=__proto__&format=json",
    "/r/%00",
    `/r/${"a".repeat(5000)}`,
    `/r/${"a".repeat(43)}/download?what=results&format=toString`,
    "/trajectories?study=%00",
    "/results?benchmark=%00",
    "/results?benchmark=no%20such%20benchmark",
    "/api/results?format=csv&table=all",
    "/api/results?format=latex&table=constructor",
  ];
  for (const url of urls) {
    const status = (await request.get(url, { maxRedirects: 0 })).status();
    expect([url, status >= 400 && status < 500]).toEqual([url, true]);
  }
});

test("every refusal under /api/v1 is JSON, those made before the routes too", async () => {
  const json = (r: Raw) => JSON.parse(r.body) as { error: { code: string; message: string } };
  // A method the route does not take: 405, with what it takes.
  const method = await rawRequest({ method: "POST", path: "/api/v1/results?format=csv" });
  expect([method.status, method.headers.allow, json(method).error.code]).toEqual([
    405,
    "GET, HEAD, OPTIONS",
    "METHOD_NOT_ALLOWED",
  ]);
  // A path no route serves, a path with a control character, headers larger than the server reads.
  const unknown = await rawRequest({ path: "/api/v1/nothing" });
  expect([unknown.status, json(unknown).error.code]).toEqual([404, "NOT_FOUND"]);
  const control = await rawRequest({ path: "/api/v1/trajectories/%00" });
  expect([control.status, json(control).error.code]).toEqual([400, "BAD_INPUT"]);
  const huge = await rawRequest({ path: "/api/v1/results", headers: { "x-padding": "a".repeat(20_000) } });
  expect([huge.status, huge.headers["content-type"], json(huge).error.code]).toEqual([
    431,
    "application/json",
    "TOO_LARGE",
  ]);
  // Each with the content type it says.
  for (const r of [method, unknown, control]) expect(r.headers["content-type"]).toBe("application/json");
});

test("a reviewer's refused server action answers 403, not 500, and changes nothing", async ({ request }) => {
  const manifest = JSON.parse(fs.readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const id = Object.entries(manifest.node).find(
    ([, v]) => v.filename === "app/people/actions.ts" && v.exportedName === "addPerson",
  )?.[0];
  expect(id).toBeTruthy();
  const form = new FormData();
  for (const [k, v] of Object.entries({
    handle: "e2e-sneaky",
    email: "sneaky@example.org",
    role: "RESEARCHER",
    password: "sneaky-pass-1",
  }))
    form.append(`1_${k}`, v);
  const res = await rawRequest({
    method: "POST",
    path: "/people",
    headers: {
      cookie: cookieOf("REVIEWER"),
      origin: ORIGIN,
      "next-action": id!,
      "content-type": "text/plain;charset=UTF-8",
    },
    body: JSON.stringify([null, null]),
  });
  expect(res.status).toBe(403);
  expect(await (await request.get("/people")).text()).not.toContain("e2e-sneaky");
});

test(
  "pages carry a script policy with a nonce; agent text and downloads are not cached; CSV cells cannot run " +
    "as formulas",
  async ({ request }) => {
    const page = await request.get("/trajectories");
    const policy = page.headers()["content-security-policy"]!;
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("frame-ancestors 'none'");
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    const html = await page.text();
    // Every script the page carries has the nonce.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s).toContain(`nonce="${nonce}"`);

    expect((await request.get("/trajectories/1/text?seq=0")).headers()["cache-control"]).toBe("no-store");
    expect((await request.get("/api/results?format=csv")).headers()["cache-control"]).toBe("no-store");

    const model = '=HYPERLINK("http://evil.example","x")';
    const record = trajectoryFixture({ id: "e2e-formula", benchmark: "e2e-formula", model, task: { id: "formula" } });
    const imported = await request.post("/api/imports", {
      multipart: {
        file: {
          name: "e2e-formula.jsonl",
          mimeType: "application/x-ndjson",
          buffer: Buffer.from(`${JSON.stringify(record)}\n`),
        },
      },
      headers: { origin: ORIGIN },
    });
    expect(await imported.text()).toContain('"ok":true');
    const csv = await (await request.get("/api/results?format=csv")).text();
    const line = csv.split("\n").find((l) => l.includes("HYPERLINK"))!;
    expect(line.startsWith(`e2e-formula,"'=HYPERLINK(`)).toBe(true);
  },
);

type ActionRef = { id: string; file: string; name: string; page: string };

/** The app's server actions, from the build's manifest: their ids, files and exported names. */
function serverActions(): ActionRef[] {
  const manifest = JSON.parse(fs.readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string; workers?: Record<string, unknown> }>;
  };
  // Each is posted to a page that uses it (its first worker, any dynamic segment given 1).
  const pageOf = (worker: string) =>
    worker
      .replace(/^app/, "")
      .replace(/\/page$/, "")
      .replace(/\[[^\]]+\]/g, "1") || "/";
  return Object.entries(manifest.node)
    .filter(([, v]) => v.filename?.startsWith("app/") && v.exportedName)
    .map(([id, v]) => ({
      id,
      file: v.filename!,
      name: v.exportedName!,
      page: pageOf(Object.keys(v.workers ?? {}).find((w) => !w.includes("not-found")) ?? "app/page"),
    }));
}

/**
 * Calls a server action as React's client does: a form argument ("$K1") as fields named _1_NAME,
 * then the arguments as JSON in field 0, posted to a page that uses the action.
 */
function callAction(
  action: ActionRef,
  args: unknown[],
  fields: Record<string, string>,
  headers: Record<string, string>,
): Promise<Raw> {
  const boundary = "----e2e-action";
  const parts = [...Object.entries(fields).map(([k, v]) => [`_1_${k}`, v]), ["0", JSON.stringify(args)]];
  const body = Buffer.concat([
    ...parts.map(([k, v]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return rawRequest({
    method: "POST",
    path: action.page,
    headers: {
      "next-action": action.id,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      accept: "text/x-component",
      ...headers,
    },
    body,
  });
}

test("an address that is not UTF-8 or holds a control character answers 400, signed in or out", async () => {
  const paths = [
    "/r/%ff",
    "/trajectories/%ff",
    "/reports/%ff",
    "/queue/%ff/0",
    "/review/1/%c3%28",
    "/studies/%e2%82",
    "/api/imports/%ff",
    "/trajectories/1/text%ff",
    "/agreement/%ff",
    "/%ff",
    "/trajectories/1%00",
  ];
  for (const path of paths)
    for (const cookie of [undefined, cookieOf("RESEARCHER")]) {
      const res = await rawRequest({ path, headers: cookie ? { cookie } : {} });
      expect([path, res.status, res.body]).toEqual([path, 400, expect.stringMatching(/^the address holds /)]);
    }
});

test("a server action with no Origin is refused before it runs, and changes nothing", async ({ request }) => {
  const add = serverActions().find((a) => a.file === "app/people/actions.ts" && a.name === "addPerson")!;
  const fields = {
    handle: "e2e-no-origin",
    email: "no-origin@example.org",
    role: "RESEARCHER",
    password: "pass-word-1",
  };
  const res = await callAction(add, [{}, "$K1"], fields, { cookie: cookieOf("RESEARCHER") });
  expect(res.status).toBe(403);
  expect(await (await request.get("/people")).text()).not.toContain("e2e-no-origin");
  // The same call from the app's own page goes through: the refusal was the Origin's.
  const ok = await callAction(add, [{}, "$K1"], fields, { cookie: cookieOf("RESEARCHER"), origin: ORIGIN });
  expect(ok.status).toBe(200);
  expect(await (await request.get("/people")).text()).toContain("e2e-no-origin");
});

test("names change only on the People page; a password changed through better-auth ends the other sessions", async ({
  request,
}) => {
  const signInAs = async (email: string, password: string) => {
    const res = await rawRequest({
      method: "POST",
      path: "/api/auth/sign-in/email",
      local: "127.0.0.31",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    return [res.headers["set-cookie"]]
      .flat()
      .map((c) => String(c).split(";")[0])
      .join("; ");
  };
  const add = serverActions().find((a) => a.file === "app/people/actions.ts" && a.name === "addPerson")!;
  const person = { handle: "e2e-pat", email: "e2e-pat@example.org", role: "REVIEWER", password: "pat-password-1" };
  expect((await callAction(add, [{}, "$K1"], person, { cookie: cookieOf("RESEARCHER"), origin: ORIGIN })).status).toBe(
    200,
  );
  const [first, second] = [
    await signInAs(person.email, person.password),
    await signInAs(person.email, person.password),
  ];
  const json = (cookie: string) => ({ "content-type": "application/json", origin: ORIGIN, cookie });
  // Renaming oneself (or anything better-auth would change about a person) is not served.
  for (const path of ["/api/auth/update-user", "/api/auth/change-email", "/api/auth/delete-user"]) {
    const res = await rawRequest({
      method: "POST",
      path,
      headers: json(first),
      body: JSON.stringify({ name: "Pat (renamed)", newEmail: "x@example.org" }),
    });
    expect([path, res.status]).toEqual([path, 404]);
  }
  expect(await (await request.get("/people")).text()).not.toContain("Pat (renamed)");
  // A new password through better-auth's own route, asking to keep the other sessions: they end all the same.
  const changed = await rawRequest({
    method: "POST",
    path: "/api/auth/change-password",
    headers: json(first),
    body: JSON.stringify({
      currentPassword: person.password,
      newPassword: "pat-password-2",
      revokeOtherSessions: false,
    }),
  });
  expect(changed.status).toBe(200);
  const session = (cookie: string) =>
    rawRequest({ path: "/api/auth/get-session", headers: { cookie } }).then((r) => JSON.parse(r.body || "null"));
  expect(await session(second)).toBeNull();
});

test("every server action answers hostile fields and arguments without a 500", async () => {
  // NUL bytes, numbers no form sends (NaN, ±Infinity, past the database's integers, negative), and a
  // field of 300,000 characters: in every field each action reads, and as every bound argument.
  const texts = ["a\u0000b", "NaN", "Infinity", "-Infinity", "2147483648", "-1", "1e400", "x".repeat(300_000)];
  const bound = ["$NaN", "$Infinity", "$-Infinity", 2147483648, -1, "a\u0000b", { overall: "$NaN", note: "\u0000" }];
  const actions = serverActions().filter((a) => a.name !== "signOut");
  expect(actions.length).toBeGreaterThanOrEqual(15);
  const failures: string[] = [];
  for (const action of actions) {
    const source = fs.readFileSync(action.file, "utf8");
    const names = new Set(
      [...source.matchAll(/(?:get|getAll)\("(\w+)"\)|text\(data, "(\w+)"\)/g)].map((m) => m[1] ?? m[2]!),
    );
    // Free text a person may rightly give any value (a report's or study's name, a prompt) gets the
    // NUL and the overlong values only: the others would be saved, as they should.
    const free = new Set(["name", "prompt"]);
    const calls: Array<{ args: unknown[]; fields: Record<string, string> }> = [];
    for (const t of texts) {
      const fields = Object.fromEntries(
        [...names].filter((n) => !free.has(n) || t.includes("\u0000") || t.length > 1000).map((n) => [n, t]),
      );
      calls.push({ args: [{}, "$K1"], fields }, { args: ["$K1"], fields });
    }
    for (const b of bound) calls.push({ args: [b, b, b, b], fields: {} }, { args: [null, b], fields: {} });
    for (const { args, fields } of calls) {
      const res = await callAction(action, args, fields, { cookie: cookieOf("RESEARCHER"), origin: ORIGIN });
      if (res.status >= 500)
        failures.push(`${action.file} ${action.name} ${JSON.stringify(args).slice(0, 60)}: ${res.status}`);
    }
  }
  expect(failures).toEqual([]);
});
