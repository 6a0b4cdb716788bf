// The app's HTTP server: Next.js behind one step of our own that gives each request the client's
// address in a header the client cannot set (decision 13), and serves kept pages (decision 31).
// With WEB_CONCURRENCY=N on PostgreSQL, N processes share the port; on the embedded database, one.
// Whatever their number, they run under a primary that starts again one that dies (decision 32).
import cluster from "node:cluster";
import http from "node:http";
import next from "next";
import { V1_ROUTES } from "@/lib/api/v1-spec";
import { authSecret } from "@/lib/auth/secret";
import { ConfigError, config } from "@/lib/config";
import { currentDb, preparedQuery } from "@/lib/db/connect";
import { stampClientAddress, type Trust, trustFor } from "@/lib/server/client-address";
import { supervise } from "@/lib/server/supervisor";
import { PageCache, sendKept } from "@/lib/web/page-cache";
import { actionBodyRefusal, apiErrorBody, apiRouteRefusal, isApiPath, unreadablePath } from "@/lib/web/request-checks";

const dev = process.argv.includes("--dev");
/** The API's routes and their methods, as its description lists them, and the description itself. */
const API_ROUTES = [
  ...[...new Set(V1_ROUTES.map((r) => r.path))].map((path) => ({
    path,
    methods: V1_ROUTES.filter((r) => r.path === path).map((r) => r.method),
  })),
  { path: "/openapi.json", methods: ["get"] },
];
let port: number;
let trust: Trust;
let processes: number;
try {
  const settings = config();
  port = settings.PORT;
  trust = trustFor(settings.TRUST_PROXY);
  processes = dev ? 1 : settings.WEB_CONCURRENCY;
  if (processes > 1 && !settings.DATABASE_URL) {
    if (cluster.isPrimary)
      console.error(
        `WEB_CONCURRENCY=${processes}: the embedded database admits one process, so the app serves with one; ` +
          "set DATABASE_URL (PostgreSQL) to run several",
      );
    processes = 1;
  }
} catch (e) {
  console.error(
    e instanceof ConfigError
      ? e.message
      : `bad configuration: TRUST_PROXY: ${e instanceof Error ? e.message : String(e)}`,
  );
  process.exit(1);
}

if (!dev && cluster.isPrimary) {
  supervise({ processes, port, say: (line) => console.error(line) });
} else {
  const app = next({ dev, dir: process.cwd(), port });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Pages kept until their data change (lib/web/page-cache.ts): PostgreSQL only, PAGE_CACHE_MB=0 turns it off.
  const settings = config();
  const pages =
    !dev && settings.DATABASE_URL && settings.PAGE_CACHE_MB > 0
      ? new PageCache(
          (text, params) => preparedQuery(currentDb().pool!, text, params),
          settings.PAGE_CACHE_MB * 1024 * 1024,
          authSecret(),
        )
      : null;
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    pages?.noteWrites(req, res);
    const key = pages ? await pages.keyOf(req).catch(() => null) : null;
    if (!pages || !key) return handle(req, res);
    const kept = pages.get(key);
    if (kept) return sendKept(req, res, kept, "hit");
    const previous = pages.previous(key, req);
    if (previous) return sendKept(req, res, previous, "stale");
    // Nothing it may be sent from before (its viewer wrote since): the render under way, if any.
    const rendered = await pages.pending(key);
    if (rendered) return sendKept(req, res, rendered, "hit");
    // Rendered plain (the kept copy is compressed per reader when sent again), and recorded.
    delete req.headers["accept-encoding"];
    res.setHeader("x-page-cache", "miss");
    pages.capture(key, res);
    return handle(req, res);
  };
  const server = http.createServer((req, res) => {
    stampClientAddress(req, trust);
    const target = req.url ?? "/";
    const unreadable = unreadablePath(target);
    const refused = unreadable ? { status: 400, reason: unreadable } : actionBodyRefusal(req.method, req.headers);
    const api = refused ? null : apiRouteRefusal(req.method, target, API_ROUTES);
    if (refused || api) {
      // The body is read and dropped, so a client still sending it gets the answer rather than a reset.
      req.resume();
      if (api || isApiPath(target)) {
        const status = api?.status ?? refused!.status;
        const code = api?.code ?? (status === 400 ? "BAD_INPUT" : "TOO_LARGE");
        res.writeHead(status, { "content-type": "application/json", ...(api?.allow ? { allow: api.allow } : {}) });
        return void res.end(apiErrorBody(code, api?.message ?? refused!.reason));
      }
      res.writeHead(refused!.status, { "content-type": "text/plain; charset=utf-8" });
      return void res.end(`${refused!.reason}\n`);
    }
    void serve(req, res);
  });
  // What Node refuses before a request is read (headers too large: 431; a malformed request: 400),
  // answered as the API answers: its address is not known yet.
  server.on("clientError", (e: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const [status, code, message] =
      e.code === "HPE_HEADER_OVERFLOW"
        ? [431, "TOO_LARGE", "the request's headers are larger than the server reads (16 KB)"]
        : [400, "BAD_INPUT", "the request could not be read as HTTP"];
    const body = apiErrorBody(code, message);
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.listen(port, () => {
    if (cluster.isPrimary) console.error(`serving on http://localhost:${port}`);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.close();
      void app.close().finally(() => process.exit(0));
    });
  }
}
