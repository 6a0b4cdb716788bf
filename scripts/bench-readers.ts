// A child of bench-mixed.ts: CONNECTIONS clients, split over the given paths, for SECONDS seconds,
// in a process of their own (so their event loop does not slow the judge run measured beside them).
// Prints one JSON line: requests answered 200, per second, p50/p95/p99 in ms, errors.
// node --import tsx scripts/bench-readers.ts BASE COOKIE SECONDS CONNECTIONS PATH...
import autocannon from "autocannon";

const [base, cookie, seconds, connections, ...paths] = process.argv.slice(2);
const duration = Number(seconds);
const latencies: number[] = [];
let errors = 0;
const each = Math.max(1, Math.floor(Number(connections) / paths.length));
await Promise.all(
  paths.map(
    (p) =>
      new Promise<void>((resolve, reject) => {
        const instance = autocannon(
          { url: `${base}${p}`, connections: each, duration, headers: { cookie: cookie! } },
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
latencies.sort((a, b) => a - b);
const pct = (q: number) =>
  Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
console.log(
  JSON.stringify({
    requests: latencies.length,
    rps: Math.round((latencies.length / duration) * 10) / 10,
    p50: pct(0.5),
    p95: pct(0.95),
    p99: pct(0.99),
    errors,
  }),
);
