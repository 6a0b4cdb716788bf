// Where a window's CPU went, for bench-mixed.ts: every process on this machine sampled from /proc
// twice a second, its user and system time grouped by what it is (PostgreSQL, the app, the judge
// run in this process, the readers, the annotators, the fake provider), and how long each part's
// main threads waited on the run queue for a core (/proc/PID/schedstat: a Node process's event loop,
// a PostgreSQL backend). A process that ends in the window counts what it had used when last seen.
// Linux only; elsewhere the figures are empty.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks a second of /proc's times (USER_HZ, 100 on Linux's every architecture). */
const TICKS = 100;

const PARTS: Array<[string, (cmd: string) => boolean]> = [
  ["postgres", (cmd) => cmd.startsWith("postgres")],
  ["app", (cmd) => /scripts\/(start|server)\.ts|\.next\/standalone|next-server/.test(cmd)],
  ["readers", (cmd) => cmd.includes("bench-readers")],
  ["annotators", (cmd) => cmd.includes("bench-annotators")],
  ["fake provider", (cmd) => cmd.includes("fake-provider")],
];

function part(pid: number, cmd: string): string {
  if (pid === process.pid) return "judge run";
  return PARTS.find(([, test]) => test(cmd))?.[0] ?? "other";
}

/** A process's CPU (ticks) and its main thread's wait for a core (ns), first and last seen. */
type Seen = { part: string; first: number; last: number; waitFirst: number; waitLast: number };

/** A process's CPU and wait so far, and (`named`: a process not seen before) its command line. */
function ticksOf(pid: string, named: boolean): { cmd: string; ticks: number; waitNs: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cmd = named ? readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ") : "";
    // On CPU, waiting on a run queue (both ns), time slices; absent without schedstats.
    const waitNs = Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[1]) || 0;
    return { cmd, ticks: Number(fields[11]) + Number(fields[12]), waitNs };
  } catch {
    return null; // gone between listing and reading
  }
}

/**
 * Samples until stopped; then each part's share of one core over the window (`cores`: 1.0 = one core
 * busy) and the seconds its main threads waited for a core, a second (`waits`: 0.5 = half of each
 * second, summed over its processes).
 */
export function cpuWindow(intervalMs = 500) {
  const seen = new Map<number, Seen>();
  const started = performance.now();
  const sample = (first: boolean) => {
    let names: string[] = [];
    try {
      names = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
    } catch {
      return;
    }
    // Read on the judge run's own event loop: a process's command line only once, when first seen.
    for (const name of names) {
      const pid = Number(name);
      const s = seen.get(pid);
      const t = ticksOf(name, !s);
      if (!t) continue;
      // A process that starts inside the window counts from zero; one seen at the start, from then.
      if (s) {
        s.last = t.ticks;
        s.waitLast = t.waitNs;
      } else
        seen.set(pid, {
          part: part(pid, t.cmd),
          first: first ? t.ticks : 0,
          last: t.ticks,
          waitFirst: first ? t.waitNs : 0,
          waitLast: t.waitNs,
        });
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), intervalMs);
  return {
    stop(): { cores: Record<string, number>; waits: Record<string, number> } {
      clearInterval(timer);
      sample(false);
      const seconds = (performance.now() - started) / 1000;
      const cores: Record<string, number> = {};
      const waits: Record<string, number> = {};
      for (const s of seen.values()) {
        cores[s.part] = (cores[s.part] ?? 0) + (s.last - s.first) / TICKS;
        waits[s.part] = (waits[s.part] ?? 0) + (s.waitLast - s.waitFirst) / 1e9;
      }
      const perSecond = (o: Record<string, number>) =>
        Object.fromEntries(
          Object.entries(o)
            .filter(([, v]) => v > 0)
            .sort((a, b) => b[1] - a[1])
            .map(([k, v]) => [k, +(v / seconds).toFixed(2)]),
        );
      return { cores: perSecond(cores), waits: perSecond(waits) };
    },
  };
}
