// Clients on pages of the running app, for the benchmarks: latencies of the 200 answers, their
// percentiles and what failed. Shared by bench.ts (a page at a time) and bench-readers.ts (the
// mixed load's readers, in a process of their own).
import autocannon from "autocannon";

export type Load = { requests: number; rps: number; p50: number; p95: number; p99: number; errors: number };

/** The q-quantile (0..1) of the values, the nearest rank below, rounded; NaN without values. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!) : NaN;
}

/**
 * `connections` clients, split evenly over `paths`, for `seconds`: each asking again as soon as it
 * has its answer, or (`perSecond`) at most that many times a second, as a person reading would, and
 * then taking pages gzipped, as a browser does.
 */
export async function loadPaths(
  base: string,
  cookie: string,
  seconds: number,
  connections: number,
  paths: readonly string[],
  perSecond?: number,
): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  const each = Math.max(1, Math.floor(connections / paths.length));
  await Promise.all(
    paths.map(
      (p) =>
        new Promise<void>((resolve, reject) => {
          const instance = autocannon(
            {
              url: `${base}${p}`,
              connections: each,
              duration: seconds,
              headers: { cookie, ...(perSecond ? { "accept-encoding": "gzip" } : {}) },
              ...(perSecond ? { connectionRate: perSecond } : {}),
            },
            (err, r) => {
              if (err) return reject(err);
              errors += r.errors + r.timeouts + r.non2xx;
              resolve();
            },
          );
          instance.on("response", (_c, status, _bytes, time) => {
            if (status === 200) latencies.push(time);
          });
        }),
    ),
  );
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    errors,
  };
}
