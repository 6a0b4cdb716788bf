// Asking a judge: one chat-completions request to any OpenAI-compatible endpoint (OpenAI,
// OpenRouter, vLLM, Ollama, LiteLLM), with the official OpenAI client (decision 25): it retries 429,
// 5xx and dropped connections with exponential backoff and obeys Retry-After. The API key is read
// from the environment variable the judge names, when asked, and is never stored or logged. The
// body is sent as bytes encoded here: a trajectory's messages are encoded once for all the judges
// that ask them (EncodedMessages), not by the client on each request.
import OpenAI from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { keyVariableRefusal } from "@/lib/config";

export type JudgeEndpoint = {
  baseUrl: string;
  model: string;
  /** The environment variable that holds the key; endpoints without keys (Ollama, vLLM) need none. */
  apiKeyEnv?: string | null;
  temperature?: number | null;
  maxTokens?: number | null;
  /** Retries after the first try. */
  maxRetries?: number;
  timeoutMs?: number;
  /** The longest wait a Retry-After may ask for before a retry (an endpoint may ask for hours). */
  maxRetryAfterSeconds?: number;
};

/** fetch, with a Retry-After over `max` seconds (or a date) brought down to `max`. */
function boundedRetryAfter(max: number): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
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
    if (e instanceof OpenAI.APIError)
      throw new JudgeRequestFailed(
        `${endpoint.baseUrl} answered ${e.status ?? "nothing"}: ${e.message}`,
        e.status ?? null,
      );
    throw new JudgeRequestFailed(e instanceof Error ? e.message : String(e), null);
  }
}
