// The real app for a benchmark: `npm start` on a database of the benchmark's own, waited for, and a
// researcher's session cookie. Shared by bench.ts and bench-uploads.ts.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createPerson } from "@/lib/data/people";
import type { DbTarget } from "@/lib/db/connect";

/** The researcher every benchmark signs in as, made on its fresh database before the app starts. */
export const BENCH_ACCOUNT = {
  handle: "bench",
  email: "bench@example.org",
  role: "RESEARCHER",
  password: "bench-password",
} as const;

export async function addBenchAccount(): Promise<void> {
  await createPerson("system", BENCH_ACCOUNT);
}

export type RunningApp = {
  base: string;
  cookie: string;
  server: ChildProcess;
  log: () => string;
  stop: () => Promise<void>;
};

/** Starts the built app (building it when stale) on `target` and signs in as `account`. */
export async function startApp(
  target: DbTarget,
  port: number,
  account: { email: string; password: string },
  env: Record<string, string> = {},
): Promise<RunningApp> {
  const vars = {
    ...process.env,
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: "1",
    DEMO_DATA: "off",
    ...env,
    ...(target.kind === "postgres" ? { DATABASE_URL: target.url } : { PGLITE_DIR: target.dir! }),
  };
  execFileSync(process.execPath, ["scripts/build-if-stale.mjs"], { stdio: ["ignore", "ignore", "inherit"] });
  const server = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
    env: vars,
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let log = "";
  server.stderr!.on("data", (d) => {
    log += String(d);
  });
  const stop = async () => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      /* gone */
    }
    await new Promise((r) => setTimeout(r, 1000));
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (i > 600) throw new Error(`the app did not start: ${log.slice(-2000)}`);
      if (
        await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify(account),
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    if (!signIn.ok || !cookie) throw new Error(`bench sign-in failed: ${signIn.status}`);
    return { base, cookie, server, log: () => log, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The resident memory of the app's HTTP server process (the child of `npm start`'s process), in bytes. */
export function serverRss(app: RunningApp): number {
  const children = (pid: number): number[] => {
    try {
      return fs
        .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  const rss = (pid: number) => {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  };
  const pids = children(app.server.pid!);
  return pids.reduce((sum, pid) => sum + rss(pid) + children(pid).reduce((s, c) => s + rss(c), 0), 0);
}
