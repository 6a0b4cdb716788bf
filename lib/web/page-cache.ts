// Pages served from what they last rendered, per viewer, under the data's versions (decision 31).
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { LRUCache } from "lru-cache";
import { sessionToken, viewerColumns } from "@/lib/auth/viewer";
import { DATA_KINDS, type Kind, versionsOf } from "@/lib/data/data-version";
import { deflatePieces, splicedGzip } from "./spliced-gzip";

export type { Kind };

const ALL: Kind[] = [...DATA_KINDS];

/** The pages kept, and the data each shows (a frozen report's shared page: only its link's state). */
const PAGES: Array<{ path: RegExp; kinds: Kind[]; shared?: true }> = [
  { path: /^\/results$/, kinds: ["trajectories", "votes", "people", "rules", "rule_hits"] },
  { path: /^\/agreement$/, kinds: ALL },
  { path: /^\/trajectories$/, kinds: ALL },
  { path: /^\/trajectories\/\d+$/, kinds: ALL },
  { path: /^\/compare$/, kinds: ALL },
  { path: /^\/reports\/\d+$/, kinds: ALL },
  { path: /^\/r\/[A-Za-z0-9_-]{43}$/, kinds: ["reports"], shared: true },
];

/** A kept page: its headers and body, its nonce and where the nonce stands in the body (byte offsets). */
export type KeptPage = {
  headers: OutgoingHttpHeaders;
  body: Buffer;
  nonce: string | null;
  at: number[];
  /** When its render began (ms since the epoch): it shows no write that ended after. */
  renderedFrom: number;
  /** The body deflated once between the nonce's places (lib/web/spliced-gzip.ts), once ready. */
  deflated?: Buffer[];
};

/** How long a kept page stands for newer votes, labels and rule hits alone, unless its viewer wrote (decision 38). */
export const STREAM_LAG_MS = 3000;

/** The kinds written as streams of small writes, for which a kept page may lag (STREAM_LAG_MS). */
const STREAMED = ["votes:", "labels:", "rule_hits:"];

/** Whether two keys of one page differ in the streamed kinds' versions alone. */
function streamedAloneMoved(a: string, b: string): boolean {
  const kinds = (key: string) => key.slice(key.lastIndexOf(" ") + 1).split(",");
  const [x, y] = [kinds(a), kinds(b)];
  const streamed = (v: string, w: string) => STREAMED.some((k) => v.startsWith(k) && w.startsWith(k));
  return x.length === y.length && x.every((v, i) => v === y[i] || streamed(v, y[i]!));
}

function offsets(body: Buffer, text: string | null): number[] {
  if (!text) return [];
  const at: number[] = [];
  for (let i = body.indexOf(text); i !== -1; i = body.indexOf(text, i + text.length)) at.push(i);
  return at;
}

/** Who views a page (lib/auth/viewer.ts) and the versions of the data it shows, in one statement. */
const KEY_SQL = `SELECT ${viewerColumns("$1", "$2")}, ${versionsOf("$3")} AS versions`;

type KeyRow = { viewer: string | null; link: string | null; versions: string | null };

/** Runs one fixed statement, prepared once per connection on the server's pool (decision 45). */
export type Query = <T>(text: string, params: unknown[]) => Promise<T[]>;

const pageOf = (key: string) => key.slice(0, key.lastIndexOf(" "));

export class PageCache {
  private readonly kept: LRUCache<string, KeptPage>;
  /** Renders under way, by key: requests for the same page wait for the first instead of rendering too. */
  private readonly rendering = new Map<string, Promise<KeptPage | null>>();
  /** Per page, the key under which it is being rendered afresh, and the key it was last kept under. */
  private readonly renderingPage = new Map<string, string>();
  private readonly lastKept = new LRUCache<string, string>({ max: 10_000 });
  /** When each session's last write (a request other than GET or HEAD) ended, in this process. */
  private readonly lastWrite = new LRUCache<string, number>({ max: 10_000 });

  constructor(
    private readonly query: Query,
    maxBytes: number,
    private readonly secret: string,
  ) {
    this.kept = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (p) => p.body.length + (p.deflated?.reduce((n, b) => n + b.length, 0) ?? 0) + 2048,
    });
  }

  /** The key of a request's page, or null when it is not kept. */
  async keyOf(req: IncomingMessage): Promise<string | null> {
    if (req.method !== "GET" || req.headers.rsc || req.headers["next-router-prefetch"]) return null;
    const url = new URL(req.url ?? "/", "http://x");
    const page = PAGES.find((p) => p.path.test(url.pathname));
    if (!page) return null;
    // A shared report's page is kept per link and viewer.
    const token = sessionToken(req, this.secret);
    if (!page.shared && !token) return null; // nobody signed in: nothing to ask the database
    const hash = page.shared ? createHash("sha256").update(url.pathname.slice(3)).digest("hex") : null;
    const [row] = await this.query<KeyRow>(KEY_SQL, [token, hash, page.kinds]);
    const { viewer: who = null, link = null, versions = null } = row ?? {};
    if (page.shared ? !link : !who) return null;
    const keyOfViewer = page.shared ? `${link} ${who ?? "signed-out"}` : who;
    return `${keyOfViewer} ${url.pathname}${url.search} ${versions ?? ""}`;
  }

  get(key: string): KeptPage | undefined {
    return this.kept.get(key);
  }

  pending(key: string): Promise<KeptPage | null> | undefined {
    return this.rendering.get(key);
  }

  /** The copy kept last for `key` while a render runs or only votes moved (decision 38); never after a write. */
  previous(key: string, req: IncomingMessage): KeptPage | undefined {
    const page = pageOf(key);
    const lastKey = this.lastKept.get(page);
    const last = lastKey === undefined ? undefined : this.kept.get(lastKey);
    if (!last) return undefined;
    const token = sessionToken(req, this.secret);
    if (token && (this.lastWrite.get(token) ?? 0) >= last.renderedFrom) return undefined;
    // A render under way for these data or newer: readers take the last copy rather than wait for it.
    if (this.renderingPage.has(page)) return last;
    return streamedAloneMoved(lastKey!, key) && Date.now() - last.renderedFrom < STREAM_LAG_MS ? last : undefined;
  }

  /** Notes when a request that may write ends, for the session that sent it (see `previous`). */
  noteWrites(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === "GET" || req.method === "HEAD") return;
    const token = sessionToken(req, this.secret);
    if (token) res.on("close", () => this.lastWrite.set(token, Date.now()));
  }

  /** Records the render of `key` that `res` is about to send; resolves with the page once sent (null: not kept). */
  capture(key: string, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    let done!: (p: KeptPage | null) => void;
    const renderedFrom = Date.now();
    const page = pageOf(key);
    this.renderingPage.set(page, key);
    const finish = (kept: KeptPage | null) => {
      if (kept) this.lastKept.set(page, key);
      if (this.renderingPage.get(page) === key) this.renderingPage.delete(page);
      this.rendering.delete(key);
      done(kept);
    };
    this.rendering.set(
      key,
      new Promise((resolve) => {
        done = resolve;
      }),
    );
    const add = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, encoding as BufferEncoding));
    };
    res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
      add(chunk, typeof encoding === "string" ? encoding : undefined);
      return write(chunk as never, encoding as never, cb as never);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
      add(chunk, typeof encoding === "string" ? encoding : undefined);
      const result = end(chunk as never, encoding as never, cb as never);
      const headers = res.getHeaders();
      const type = String(headers["content-type"] ?? "");
      const nonce = nonceOf(headers);
      const keep =
        // A nonce of another length could not be written over in place (proxy.ts makes 16 bytes, base64).
        (nonce === null || nonce.length === NONCE_LENGTH) &&
        res.statusCode === 200 &&
        type.startsWith("text/html") &&
        !headers["set-cookie"] &&
        !headers["content-encoding"];
      const body = Buffer.concat(chunks);
      const kept = keep ? { headers, body, nonce, at: offsets(body, nonce), renderedFrom } : null;
      if (kept) {
        this.kept.set(key, kept);
        // Compressed once, off the event loop; each reader's copy is then spliced, not compressed.
        void deflatePieces(body, kept.at, NONCE_LENGTH).then(
          (deflated) => {
            if (this.kept.peek(key) === kept) this.kept.set(key, { ...kept, deflated });
          },
          () => undefined, // sent compressed per reader, as before it was ready
        );
      }
      finish(kept);
      return result;
    }) as typeof res.end;
    res.on("close", () => {
      if (this.rendering.get(key)) finish(null);
    });
  }
}

/** A nonce's length: 16 random bytes in base64, as proxy.ts makes them and sendKept replaces them. */
const NONCE_LENGTH = 24;

function nonceOf(headers: OutgoingHttpHeaders): string | null {
  return String(headers["content-security-policy"] ?? "").match(/'nonce-([^']+)'/)?.[1] ?? null;
}

/** Sends a kept page with its own nonce written over the old one: gzipped from pieces, the body not copied. */
export function sendKept(req: IncomingMessage, res: ServerResponse, page: KeptPage, how: "hit" | "stale"): void {
  const nonce = randomBytes(16).toString("base64");
  const headers: OutgoingHttpHeaders = { ...page.headers };
  if (page.nonce)
    headers["content-security-policy"] = String(headers["content-security-policy"]).replaceAll(page.nonce, nonce);
  delete headers["content-length"];
  delete headers["transfer-encoding"];
  headers["x-page-cache"] = how;
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  let body: Buffer;
  if (gzip && page.deflated) body = splicedGzip(page.deflated, page.body, page.at, Buffer.from(nonce, "latin1"));
  else {
    body = page.body;
    if (page.nonce) {
      body = Buffer.from(page.body);
      for (const i of page.at) body.write(nonce, i, "latin1");
    }
    if (gzip) body = gzipSync(body, { level: 1 });
  }
  if (gzip) {
    headers["content-encoding"] = "gzip";
    headers.vary = "Accept-Encoding";
  }
  headers["content-length"] = String(body.length);
  res.writeHead(200, headers);
  res.end(body);
}
