// Asking a judge against a local server that speaks the chat-completions protocol (never a real
// provider): the answer and its token counts, retries on 429 with Retry-After, 500 and dropped
// connections, a failure after the last retry or a timeout, the key read from the environment only,
// and the transport's own cases (an answer compressed unasked, a redirect, an answer too large).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeProvider, fakeProvider } from "@/test/fake-provider";
import { askJudge, EncodedMessages, JudgeRequestFailed, MAX_ANSWER_BYTES } from "./client";

const messages = [
  { role: "system" as const, content: "judge" },
  { role: "user" as const, content: "trajectory" },
];
let provider: FakeProvider | null = null;
let server: http.Server | null = null;
afterEach(async () => {
  await provider?.close();
  provider = null;
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(null)));
  server = null;
  delete process.env.FAKE_JUDGE_API_KEY;
});

describe("askJudge", () => {
  it("returns the answer, the model and the tokens; sends the key from the named variable", async () => {
    provider = await fakeProvider([{ answer: '{"UPSTREAM": "NOT_ATTEMPTED"}', tokensIn: 1234, tokensOut: 56 }]);
    process.env.FAKE_JUDGE_API_KEY = "sk-test-123";
    const a = await askJudge({ baseUrl: provider.url, model: "judge-1", apiKeyEnv: "FAKE_JUDGE_API_KEY" }, messages);
    expect(a).toMatchObject({ raw: '{"UPSTREAM": "NOT_ATTEMPTED"}', model: "judge-1", tokensIn: 1234, tokensOut: 56 });
    expect(provider.requests[0]).toMatchObject({ model: "judge-1", messages, auth: "Bearer sk-test-123" });
  });

  it("sends messages encoded once to each judge, with the judge's own model and settings", async () => {
    provider = await fakeProvider([{ answer: "ok" }]);
    // Agent output as it comes: quotes, markup, a NUL, an escape code, and characters of several bytes.
    const text = `say "hi" <script>alert(1)</script>\u0000\u001b[31m naïve ✓ 𝔘 ${"é".repeat(70_000)}`;
    const shared = new EncodedMessages([
      { role: "system", content: "judge" },
      { role: "user", content: text },
    ]);
    await askJudge({ baseUrl: provider.url, model: "judge-a", temperature: 0, maxTokens: 300 }, shared);
    await askJudge({ baseUrl: provider.url, model: "judge-b" }, shared);
    const sent = [
      { role: "system", content: "judge" },
      { role: "user", content: text },
    ];
    expect(provider.requests).toEqual([
      { model: "judge-a", messages: sent, temperature: 0, maxTokens: 300, auth: "Bearer none" },
      { model: "judge-b", messages: sent, temperature: null, maxTokens: null, auth: "Bearer none" },
    ]);
  });

  it("answers a benchmark's provider, which reads only the model at the head of each body", async () => {
    provider = await fakeProvider([{ answer: "ok" }], { modelOnly: true });
    const big = new EncodedMessages([{ role: "user", content: `"model":"not this" ${"x".repeat(200_000)}` }]);
    const a = await askJudge({ baseUrl: provider.url, model: 'judge "q" ✓', temperature: 0.5 }, big);
    expect(a).toMatchObject({ raw: "ok", model: 'judge "q" ✓' });
    expect(provider.requests).toEqual([
      { model: 'judge "q" ✓', messages: [], temperature: null, maxTokens: null, auth: "Bearer none" },
    ]);
  });

  it("waits as Retry-After says on 429, retries 500s and dropped connections", async () => {
    provider = await fakeProvider([
      { status: 429, retryAfter: "1" },
      { status: 500 },
      { drop: true },
      { answer: "ok" },
    ]);
    const started = Date.now();
    const a = await askJudge({ baseUrl: provider.url, model: "m", maxRetries: 4 }, messages);
    expect(a.raw).toBe("ok");
    // Each try sends the whole body again.
    expect(provider.requests.map((r) => [r.model, r.messages])).toEqual(Array(4).fill(["m", messages]));
    // At least the second the 429 asked for.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("a Retry-After of an hour is waited only up to the bound", async () => {
    provider = await fakeProvider([{ status: 429, retryAfter: "3600" }, { answer: "ok" }]);
    const started = Date.now();
    const a = await askJudge({ baseUrl: provider.url, model: "m", maxRetryAfterSeconds: 1 }, messages);
    expect(a.raw).toBe("ok");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("after the last retry, fails with what the endpoint said", async () => {
    provider = await fakeProvider([{ status: 503, body: JSON.stringify({ error: { message: "overloaded" } }) }]);
    const failure = askJudge({ baseUrl: provider.url, model: "m", maxRetries: 1 }, messages);
    await expect(failure).rejects.toBeInstanceOf(JudgeRequestFailed);
    await expect(failure).rejects.toMatchObject({ status: 503 });
    expect(provider.requests).toHaveLength(2);
  });

  it("a key variable that is not set is an error before any request", async () => {
    provider = await fakeProvider([{ answer: "ok" }]);
    delete process.env.NOT_SET_API_KEY;
    await expect(
      askJudge({ baseUrl: provider.url, model: "m", apiKeyEnv: "NOT_SET_API_KEY" }, messages),
    ).rejects.toThrow("the environment variable NOT_SET_API_KEY that holds the key is not set");
    expect(provider.requests).toHaveLength(0);
  });

  it("never reads the key from a variable the server does not allow, its own settings above all", async () => {
    provider = await fakeProvider([{ answer: "ok" }]);
    for (const name of ["DATABASE_URL", "BETTER_AUTH_SECRET", "HOME"]) {
      await expect(askJudge({ baseUrl: provider.url, model: "m", apiKeyEnv: name }, messages)).rejects.toThrow(
        `the key cannot be read from ${name}: the server allows *_API_KEY (JUDGE_KEY_VARIABLES), never its own ` +
          "settings",
      );
    }
    expect(provider.requests).toHaveLength(0);
  });

  it("gives up on an endpoint that does not answer within its timeout, after each retry", async () => {
    provider = await fakeProvider([{ answer: "late", latencyMs: 3000 }]);
    const started = Date.now();
    const failure = askJudge({ baseUrl: provider.url, model: "m", maxRetries: 1, timeoutMs: 200 }, messages);
    await expect(failure).rejects.toThrow(/timed out/i);
    expect(provider.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2900);
  });

  // Endpoints that answer otherwise than the fake provider: each path of a server of the test's own.
  const endpoint = async (handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => handle(req, res));
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const completion = (content: string) =>
    JSON.stringify({ model: "m", choices: [{ message: { role: "assistant", content } }], usage: {} });

  it("reads an answer compressed unasked, and follows a redirect", async () => {
    const base = await endpoint((req, res) => {
      if (req.url!.startsWith("/old/")) {
        res.writeHead(307, { location: req.url!.replace("/old/", "/new/") }).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(gzipSync(completion(`answered at ${req.url}`)));
    });
    expect((await askJudge({ baseUrl: `${base}/v1`, model: "m" }, messages)).raw).toBe(
      "answered at /v1/chat/completions",
    );
    expect((await askJudge({ baseUrl: `${base}/old/v1`, model: "m" }, messages)).raw).toBe(
      "answered at /new/v1/chat/completions",
    );
  });

  it("refuses an answer larger than the bound, plain or compressed, without holding it", async () => {
    const huge = completion("x".repeat(MAX_ANSWER_BYTES));
    const base = await endpoint((req, res) => {
      const gz = req.url!.startsWith("/gz/");
      res.writeHead(200, { "content-type": "application/json", ...(gz ? { "content-encoding": "gzip" } : {}) });
      res.end(gz ? gzipSync(huge) : huge);
    });
    for (const path of ["/v1", "/gz/v1"])
      await expect(askJudge({ baseUrl: `${base}${path}`, model: "m", maxRetries: 0 }, messages)).rejects.toThrow(
        `${base}${path} answered nothing: Connection error. (the answer was larger than 2 MB)`,
      );
  });
});
