// Asking a judge with the official OpenAI client (decision 25); the key read when asked, never stored or logged.
import { promisify } from "node:util";
import zlib from "node:zlib";
import OpenAI from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { Agent, type Dispatcher, interceptors, request } from "undici";
import { keyVariableRefusal } from "@/lib/config";

export type JudgeEndpoint = {
  baseUrl: string;
  model: string;
  /** The environment variable that holds the key; endpoints without keys (Ollama, vLLM) need none. */
  apiKeyEnv?: string | null;
  temperature?: number | null;
  maxTokens?: number | null;
  maxRetries?: number;
  timeoutMs?: number;
  /** The longest wait a Retry-After may ask for before a retry (an endpoint may ask for hours). */
  maxRetryAfterSeconds?: number;
};

/** The most an answer may hold decompressed: a verdict and rationale are kilobytes. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
const TOO_LARGE = `the answer was larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`;

/** Connections to the judges' endpoints, kept alive for the process; a few redirects followed. */
const dispatcher = new Agent({ keepAliveTimeout: 30_000, maxResponseSize: MAX_ANSWER_BYTES }).compose(
  interceptors.redirect({ maxRedirections: 3 }),
);

const decompress: Record<string, (b: Buffer, o: zlib.ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

/** An answer over MAX_ANSWER_BYTES (undici's bound, or zlib's) said so; any other error as it is. */
function tooLarge(e: unknown): never {
  const code = (e as { code?: string }).code;
  throw code === "UND_ERR_RES_EXCEEDED_MAX_SIZE" || code === "ERR_BUFFER_TOO_LARGE" ? new Error(TOO_LARGE) : e;
}

const NO_BODY = new Set([204, 205, 304]);

/** The OpenAI client's fetch through undici's request (0.8 ms of CPU less a request), answers bounded. */
export async function judgeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body ?? null;
  if (input instanceof Request || !(body === null || typeof body === "string" || body instanceof Uint8Array))
    throw new TypeError("a judge is asked with an address and a body of bytes");
  const res = await request(input, {
    method: (init.method ?? "GET").toUpperCase() as Dispatcher.HttpMethod,
    headers: Object.fromEntries(new Headers(init.headers)),
    body,
    signal: init.signal ?? undefined,
    dispatcher,
  });
  let bytes: Buffer = Buffer.from(await res.body.arrayBuffer().catch(tooLarge));
  if (res.statusCode < 200 || res.statusCode > 599) throw new Error(`${input} answered with status ${res.statusCode}`);
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers))
    for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
  const encoding = answerHeaders.get("content-encoding")?.trim().toLowerCase();
  if (encoding && encoding !== "identity") {
    const inflate = decompress[encoding];
    if (!inflate) throw new Error(`${input} answered in an encoding this client does not read: ${encoding}`);
    bytes = await inflate(bytes, { maxOutputLength: MAX_ANSWER_BYTES }).catch(tooLarge);
    answerHeaders.delete("content-encoding");
    answerHeaders.delete("content-length");
  }
  // A Buffer of zlib's or of the answer read is always over an ArrayBuffer (never shared).
  const answer = NO_BODY.has(res.statusCode) ? null : (bytes as Uint8Array<ArrayBuffer>);
  return new Response(answer, { status: res.statusCode, headers: answerHeaders });
}

/** fetch, with a Retry-After over `max` seconds (or a date) brought down to `max`. */
function boundedRetryAfter(max: number): typeof fetch {
  return async (input, init) => {
    const res = await judgeFetch(input, init);
    const asked = res.headers.get("retry-after");
    if (asked === null) return res;
    const seconds = Number(asked);
    if (Number.isFinite(seconds) && seconds <= max) return res;
    const headers = new Headers(res.headers);
    headers.set("retry-after", String(max));
    headers.delete("retry-after-ms");
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}

export type ChatMessage = { role: "system" | "user"; content: string };

/** Messages encoded as JSON once, for every judge that asks them (a panel's judges: shared-reads.ts). */
export class EncodedMessages {
  readonly bytes: Buffer;
  constructor(messages: readonly ChatMessage[]) {
    this.bytes = Buffer.from(JSON.stringify(messages));
  }
}

const CLOSE = Buffer.from("}");

/** The chat-completions body: the judge's model and settings, then the messages as encoded. */
function requestBody(endpoint: JudgeEndpoint, messages: EncodedMessages): Buffer {
  const settings = JSON.stringify({
    model: endpoint.model,
    ...(endpoint.temperature != null ? { temperature: endpoint.temperature } : {}),
    ...(endpoint.maxTokens != null ? { max_tokens: endpoint.maxTokens } : {}),
  });
  return Buffer.concat([Buffer.from(`${settings.slice(0, -1)},"messages":`), messages.bytes, CLOSE]);
}

export type JudgeAnswer = { raw: string; model: string; tokensIn: number; tokensOut: number; ms: number };

type PricedJudge = Pick<JudgeEndpoint, "apiKeyEnv" | "temperature" | "maxTokens"> & {
  baseUrl: string | null;
  model: string | null;
  priceInPerMillion: number | null;
  priceOutPerMillion: number | null;
};

/** Asks a judge as stored (its endpoint and sampling settings); the answer and its price (null: unpriced). */
export async function askPriced(
  judge: PricedJudge,
  messages: EncodedMessages,
): Promise<{ answer: JudgeAnswer; cost: number | null }> {
  const { baseUrl, model, apiKeyEnv, temperature, maxTokens } = judge;
  const answer = await askJudge({ baseUrl: baseUrl!, model: model!, apiKeyEnv, temperature, maxTokens }, messages);
  const cost =
    judge.priceInPerMillion == null
      ? null
      : (answer.tokensIn * judge.priceInPerMillion + answer.tokensOut * (judge.priceOutPerMillion ?? 0)) / 1e6;
  return { answer, cost };
}

/** A failure after the last retry, with what the endpoint said (never the key). */
export class JudgeRequestFailed extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** One client per endpoint and key (each keeps its connections alive), kept for the process. */
const clients = new Map<string, OpenAI>();
function clientFor(endpoint: JudgeEndpoint, apiKey: string | undefined): OpenAI {
  const options = {
    baseURL: endpoint.baseUrl,
    apiKey: apiKey ?? "none",
    maxRetries: endpoint.maxRetries ?? 4,
    timeout: endpoint.timeoutMs ?? 120_000,
  };
  const retryAfter = endpoint.maxRetryAfterSeconds ?? 60;
  const key = JSON.stringify([options, retryAfter]);
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({ ...options, fetch: boundedRetryAfter(retryAfter) });
    clients.set(key, client);
  }
  return client;
}

export async function askJudge(
  endpoint: JudgeEndpoint,
  messages: readonly ChatMessage[] | EncodedMessages,
): Promise<JudgeAnswer> {
  // Checked again when asking: the judge may have been defined before the server's allowance changed.
  const refused = endpoint.apiKeyEnv ? keyVariableRefusal(endpoint.apiKeyEnv) : null;
  if (refused) throw new JudgeRequestFailed(refused, null);
  const apiKey = endpoint.apiKeyEnv ? process.env[endpoint.apiKeyEnv] : undefined;
  if (endpoint.apiKeyEnv && !apiKey)
    throw new JudgeRequestFailed(`the environment variable ${endpoint.apiKeyEnv} that holds the key is not set`, null);
  const client = clientFor(endpoint, apiKey);
  const started = performance.now();
  try {
    // The client's documented way to send a body of its own (its README, "Undocumented request params").
    const body = requestBody(endpoint, messages instanceof EncodedMessages ? messages : new EncodedMessages(messages));
    const completion = await client.post<ChatCompletion>("/chat/completions", {
      body,
      headers: { "content-type": "application/json" },
    });
    return {
      raw: completion.choices[0]?.message?.content ?? "",
      model: completion.model || endpoint.model,
      tokensIn: completion.usage?.prompt_tokens ?? 0,
      tokensOut: completion.usage?.completion_tokens ?? 0,
      ms: Math.round(performance.now() - started),
    };
  } catch (e) {
    if (e instanceof OpenAI.APIError) {
      // A connection's error says why in its cause (refused, reset, an answer too large).
      const why = e.cause instanceof Error && e.cause.message !== e.message ? ` (${e.cause.message})` : "";
      throw new JudgeRequestFailed(
        `${endpoint.baseUrl} answered ${e.status ?? "nothing"}: ${e.message}${why}`,
        e.status ?? null,
      );
    }
    throw new JudgeRequestFailed(e instanceof Error ? e.message : String(e), null);
  }
}
