// The app's HTTP server: Next.js behind one step of our own that gives each request the client's
// address in a header the client cannot set (decision 13), and serves kept pages (decision 31).
// With WEB_CONCURRENCY=N on PostgreSQL, N processes share the port; on the embedded database, one.
// Whatever their number, they run under a primary that starts again one that dies (decision 32).
import cluster from "node:cluster";
import http from "node:http";
import next from "next";
import { authSecret } from "@/lib/auth/secret";
import { ConfigError, config } from "@/lib/config";
import { currentDb, preparedQuery } from "@/lib/db-connect";
import { stampClientAddress, type Trust, trustFor } from "@/lib/server/client-address";
import { PageCache, sendKept } from "@/lib/server/page-cache";
import { actionBodyRefusal, unreadablePath } from "@/lib/server/request-checks";

const dev = process.argv.includes("--dev");
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
  // The primary only forks the servers, replaces one that dies, and passes signals on. It holds no
  // database and runs no request, so what kills a server (memory running out) cannot kill it. A
  // server that keeps dying is started again later each time (1 s, 2 s, … at most 30 s), so a crash
  // at start cannot spin.
  let stopping = false;
  const deaths: number[] = [];
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    deaths.push(now);
    while (deaths[0]! < now - 60_000) deaths.shift();
    const delay = Math.min(30_000, 500 * 2 ** Math.min(deaths.length, 6));
    console.error(
      `server process ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another in ` +
        `${(delay / 1000).toFixed(0)} s`,
    );
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, delay);
  });
  let listening = 0;
  cluster.on("listening", () => {
    listening += 1;
    if (listening === processes)
      console.error(`serving on http://localhost:${port}${processes > 1 ? ` with ${processes} processes` : ""}`);
    else if (listening > processes) console.error(`serving again on http://localhost:${port}`);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.kill(signal);
      setTimeout(() => process.exit(0), 5000).unref();
      cluster.on("exit", () => {
        if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
      });
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
    });
  }
} else {
  const app = next({ dev, dir: process.cwd(), port });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Pages kept until their data change (lib/server/page-cache.ts): PostgreSQL only, PAGE_CACHE_MB=0 turns it off.
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
    const unreadable = unreadablePath(req.url ?? "/");
    const refused = unreadable ? { status: 400, reason: unreadable } : actionBodyRefusal(req.method, req.headers);
    if (refused) {
      // The body is read and dropped, so a client still sending it gets the answer rather than a reset.
      req.resume();
      res.writeHead(refused.status, { "content-type": "text/plain; charset=utf-8" });
      return void res.end(`${refused.reason}\n`);
    }
    void serve(req, res);
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
