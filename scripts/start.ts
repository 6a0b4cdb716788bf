// npm start: prepare the database (scripts/prepare.ts, a process that exits), then serve the built app
// (scripts/server.ts: Next behind the step that works out the client's address) with a bounded heap, so
// an import's memory stays near its batch whatever the heap would otherwise grow to. This process
// only waits between the two and passes signals on, so it stays small.
import { spawn, spawnSync } from "node:child_process";
import { type Config, ConfigError, config } from "@/lib/config";

let settings: Config;
try {
  settings = config();
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  console.error(e.message);
  process.exit(1);
}

const prepared = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/prepare.ts"], {
  stdio: "inherit",
});
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

const server = spawn(
  process.execPath,
  [`--max-old-space-size=${settings.HEAP_LIMIT_MB}`, "--import", "tsx", "scripts/server.ts"],
  {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
