// The app's HTTP server: Next.js behind one step of our own. Each request gets the client's address
// in a header the client cannot set (lib/server/client-address.ts), worked out from the socket or,
// behind a configured proxy (TRUST_PROXY), from X-Forwarded-For. `npm start` runs it after
// migrating; `npm run dev` runs it with --dev.
import http from "node:http";
import next from "next";
import { config, ConfigError } from "@/lib/config";
import { stampClientAddress, trustFor, type Trust } from "@/lib/server/client-address";

const dev = process.argv.includes("--dev");
let port: number;
let trust: Trust;
try {
  const settings = config();
  port = settings.PORT;
  trust = trustFor(settings.TRUST_PROXY);
} catch (e) {
  console.error(
    e instanceof ConfigError
      ? e.message
      : `bad configuration: TRUST_PROXY: ${e instanceof Error ? e.message : String(e)}`,
  );
  process.exit(1);
}

const app = next({ dev, dir: process.cwd(), port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  stampClientAddress(req, trust);
  void handle(req, res);
});
server.listen(port, () => console.error(`serving on http://localhost:${port}`));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    void app.close().finally(() => process.exit(0));
  });
}
