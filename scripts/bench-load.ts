// Clients on pages of the running app, for the benchmarks: latencies of the 200 answers, their
// percentiles and what failed. bench.ts asks a page at a time as fast as the app answers (autocannon);
// bench-readers.ts paces the mixed load's readers, in a process of their own.
import autocannon from "autocannon";
import { Pool } from "undici";

export type Load = { requests: number; rps: number; p50: number; p95: number; p99: number; errors: number };

/** The q-quantile (0..1) of the values, the nearest rank below, rounded; NaN without values. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!) : NaN;
}

/** Latencies and failures over `seconds` as the load's figures. */
function loadOf(latencies: readonly number[], errors: number, seconds: number): Load {
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    errors,
  };
}

/** `connections` clients, split evenly over `paths`, for `seconds`, each asking again as soon as it has its answer. */
export async function loadPaths(
  base: string,
  cookie: string,
  seconds: number,
  connections: number,
  paths: readonly string[],
): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  const each = Math.max(1, Math.floor(connections / paths.length));
  await Promise.all(
    paths.map(
      (p) =>
        new Promise<void>((resolve, reject) => {
          const instance = autocannon(
            { url: `${base}${p}`, connections: each, duration: seconds, headers: { cookie } },
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
  return loadOf(latencies, errors, seconds);
}

/** How long a reader waits for an answer before it counts as failed, as autocannon's default. */
const READ_TIMEOUT_MS = 10_000;

/** A pool of connections to the app for readers, answers waited for at most READ_TIMEOUT_MS. */
export const readerPool = (base: string) =>
  new Pool(base, { headersTimeout: READ_TIMEOUT_MS, bodyTimeout: READ_TIMEOUT_MS });

/**
 * A page asked as a browser asks it (gzipped, the reader's cookie), its body read and dropped as it
 * comes: its status and how the page cache served it (`x-page-cache`). Through undici's dispatch, so
 * that no stream is made for each answer: the readers' process stands for people on other machines
 * and takes its CPU from what is measured beside it (a page a second for 50 readers and the probe
 * took 0.10-0.16 of a core through `request` and `fetch`; docs/performance.md).
 */
export function readPage(pool: Pool, path: string, cookie: string): Promise<{ status: number; how: string | null }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let how: string | null = null;
    pool.dispatch(
      { path, method: "GET", headers: { cookie, "accept-encoding": "gzip" } },
      {
        // undici tells its two kinds of handler apart by this method: without it, it asks for onConnect.
        onRequestStart() {},
        onResponseStart(_controller, statusCode, headers) {
          status = statusCode;
          const served = headers["x-page-cache"];
          how = served === undefined ? null : String(served);
        },
        onResponseData() {},
        onResponseEnd() {
          resolve({ status, how });
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}

/**
 * `connections` readers, split evenly over `paths`, for `seconds`, each loading its page `perSecond`
 * times a second, gzipped as a browser takes it, at a moment of its own in the second, as people
 * reading are: autocannon's paced clients all asked at the same moment each second, so every answer
 * waited behind the others of its second (p50 34-70 ms on an idle app that answers one in 3-4 ms).
 * Each page is asked when it is due whether or not the reader's page before has come (an open load:
 * readers stand for many people, and one waiting does not hold the next back), on as many
 * connections as are waiting, and timed from then.
 */
export async function paceReaders(
  pool: Pool,
  cookie: string,
  seconds: number,
  connections: number,
  paths: readonly string[],
  perSecond: number,
): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const interval = 1000 / perSecond;
  const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));
  const readers = Math.max(1, Math.floor(connections / paths.length)) * paths.length;
  const load = async (path: string) => {
    const t0 = performance.now();
    try {
      const { status } = await readPage(pool, path, cookie);
      if (status === 200) latencies.push(performance.now() - t0);
      else errors += 1;
    } catch {
      errors += 1;
    }
  };
  const asked: Promise<void>[] = [];
  await Promise.all(
    Array.from({ length: readers }, async (_, i) => {
      for (let due = start + (i * interval) / readers; due < start + seconds * 1000; due += interval) {
        await sleepUntil(due);
        asked.push(load(paths[i % paths.length]!));
      }
    }),
  );
  await Promise.all(asked);
  return loadOf(latencies, errors, seconds);
}
