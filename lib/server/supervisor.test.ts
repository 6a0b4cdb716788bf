// A server process killed while requests arrive: every request is answered or refused at once, and
// none hangs. With the primary handing connections out (Node's round robin), one handed to the
// process at the moment it died was held unanswered until the client gave up.
import { spawn } from "node:child_process";
import http from "node:http";
import { describe, expect, it } from "vitest";

const PORT = 3998;

describe("the supervisor", () => {
  it("starts a killed server again, and no request hangs meanwhile", async () => {
    const primary = spawn(process.execPath, ["--import", "tsx", "test/supervised-server.ts", String(PORT)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pids: number[] = [];
    const listening: Array<() => void> = [];
    primary.stdout.on("data", (c: Buffer) => {
      for (const m of c.toString().matchAll(/listening (\d+)/g)) pids.push(Number(m[1]));
      for (const wake of listening.splice(0)) wake();
    });
    const nextServer = (count: number) =>
      new Promise<void>((resolve) => (pids.length >= count ? resolve() : listening.push(() => resolve())));
    const counts = { answered: 0, refused: 0, hung: 0 };
    const agent = new http.Agent({ keepAlive: false });
    const ask = () =>
      new Promise<void>((resolve) => {
        let ended = false;
        const end = (how: keyof typeof counts) => {
          if (!ended) counts[how] += 1;
          ended = true;
          resolve();
        };
        const req = http.get({ host: "127.0.0.1", port: PORT, path: "/", agent, timeout: 5000 }, (res) => {
          res.resume();
          res.on("end", () => end("answered"));
          res.on("error", () => end("refused"));
        });
        req.on("timeout", () => {
          req.destroy();
          end("hung");
        });
        req.on("error", () => end("refused"));
      });
    try {
      await nextServer(1);
      let loading = true;
      // Twenty clients, each asking again as soon as it has its answer.
      const load = Promise.all(
        Array.from({ length: 20 }, async () => {
          while (loading) await ask();
        }),
      );
      for (let kill = 1; kill <= 5; kill++) {
        await new Promise((r) => setTimeout(r, 400));
        process.kill(pids.at(-1)!, "SIGKILL");
        await nextServer(kill + 1);
      }
      await new Promise((r) => setTimeout(r, 400));
      loading = false;
      await load;
    } finally {
      primary.kill("SIGTERM");
    }
    expect(pids).toHaveLength(6);
    expect(counts.answered).toBeGreaterThan(100);
    expect(counts.hung).toBe(0);
  }, 60_000);
});
