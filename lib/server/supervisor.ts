// The primary of the server processes (decision 32): forks, restarts and signals them; connections go straight to them.
import cluster from "node:cluster";

export type Supervision = {
  processes: number;
  /** Said once every process listens, and again after one was started anew. */
  say: (line: string) => void;
  port: number;
  /** The first restart's delay; each death within a minute doubles it, up to 30 s. */
  firstDelayMs?: number;
};

export function supervise({ processes, say, port, firstDelayMs = 1000 }: Supervision): void {
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;
  const deaths: number[] = [];
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    deaths.push(now);
    while (deaths[0]! < now - 60_000) deaths.shift();
    const delay = Math.min(30_000, (firstDelayMs / 2) * 2 ** Math.min(deaths.length, 6));
    say(
      `server process ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another in ` +
        `${(delay / 1000).toFixed(delay < 1000 ? 1 : 0)} s`,
    );
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, delay);
  });
  let listening = 0;
  cluster.on("listening", () => {
    listening += 1;
    if (listening === processes)
      say(`serving on http://localhost:${port}${processes > 1 ? ` with ${processes} processes` : ""}`);
    else if (listening > processes) say(`serving again on http://localhost:${port}`);
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
}
