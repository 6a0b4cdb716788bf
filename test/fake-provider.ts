// A local HTTP server that speaks the chat-completions protocol with scripted answers, for tests
// and benchmarks: the suite never calls a real provider. Each request takes the next step of the
// script (the last repeats): an answer after some latency, a status (429 with Retry-After, 500), or
// a connection dropped without an answer.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeStep =
  | { answer: string; latencyMs?: number; tokensIn?: number; tokensOut?: number }
  | { status: number; retryAfter?: string; body?: string }
  | { drop: true };

export type FakeProvider = {
  url: string;
  /** The bodies of the requests received, in order. */
  requests: Array<{
    model: string;
    messages: Array<{ role: string; content: string }>;
    temperature: number | null;
    maxTokens: number | null;
    auth: string | null;
  }>;
  /** The most requests it was answering at once. */
  maxInFlight: () => number;
  close: () => Promise<void>;
};

/** The bytes of a body's head that modelOnly reads the model from. */
const HEAD_BYTES = 512;

/** The model named at the head of a chat-completions body, without parsing the rest. */
function modelOf(head: Buffer): string | undefined {
  const literal = head.toString("utf8", 0, HEAD_BYTES).match(/^\s*\{\s*"model"\s*:\s*("(?:[^"\\]|\\.)*")/)?.[1];
  return literal ? JSON.parse(literal) : undefined;
}

export async function fakeProvider(
  script: FakeStep[] | ((n: number, messages: Array<{ role: string; content: string }>) => FakeStep),
  /**
   * keepMessages: false keeps each request's model but not its messages (a benchmark's memory is the
   * worker's); modelOnly: each body is not parsed at all, only its model read from its opening bytes
   * (the judges' client writes it first), and neither the script nor `requests` gets messages: a
   * benchmark's provider stands for a remote one and must not take the cores it measures (parsing a
   * judge's ~130 KB body took a third of its CPU); port: where to listen (any free one by default).
   */
  options: { keepMessages?: boolean; modelOnly?: boolean; port?: number; tokensFromBytes?: boolean } = {},
): Promise<FakeProvider> {
  const requests: FakeProvider["requests"] = [];
  let inFlight = 0;
  let most = 0;
  const next = (n: number, messages: Array<{ role: string; content: string }>) =>
    typeof script === "function" ? script(n, messages) : script[Math.min(n, script.length - 1)]!;
  const server = http.createServer((req, res) => {
    // Decoded whole: a character's bytes may fall in two chunks.
    const chunks: Buffer[] = [];
    let kept = 0;
    let bytes = 0;
    req.on("data", (c: Buffer) => {
      bytes += c.length;
      if (options.modelOnly && kept >= HEAD_BYTES) return;
      chunks.push(c);
      kept += c.length;
    });
    req.on("end", () => {
      const n = requests.length;
      const parsed = options.modelOnly
        ? { model: modelOf(Buffer.concat(chunks)) }
        : JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      requests.push({
        model: parsed.model,
        messages: options.keepMessages === false || options.modelOnly ? [] : parsed.messages,
        temperature: parsed.temperature ?? null,
        maxTokens: parsed.max_tokens ?? null,
        auth: req.headers.authorization ?? null,
      });
      const step = next(n, Array.isArray(parsed.messages) ? parsed.messages : []);
      if ("drop" in step) {
        req.socket.destroy();
        return;
      }
      if ("status" in step) {
        res.writeHead(step.status, {
          "content-type": "application/json",
          ...(step.retryAfter ? { "retry-after": step.retryAfter } : {}),
        });
        res.end(step.body ?? JSON.stringify({ error: { message: `scripted ${step.status}` } }));
        return;
      }
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `fake-${n}`,
            object: "chat.completion",
            created: 0,
            model: parsed.model,
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: step.answer } }],
            usage: {
              // tokensFromBytes: a body's bytes over 4, as the judges' estimate counts (a benchmark's cost).
              prompt_tokens: step.tokensIn ?? (options.tokensFromBytes ? Math.ceil(bytes / 4) : 100),
              completion_tokens: step.tokensOut ?? (options.tokensFromBytes ? Math.ceil(step.answer.length / 4) : 20),
              total_tokens: 0,
            },
          }),
        );
      }, step.latencyMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    maxInFlight: () => most,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
