// A child of bench-mixed.ts: CONNECTIONS readers, split over the given paths, each loading its page
// PER_SECOND times a second at a moment of its own (bench-load.ts's paceReaders), for SECONDS seconds,
// in a process of their own (so their event loop does not slow the judge run measured beside them),
// from the start signal (bench-go.ts). Beside them a probe asks for each path in turn every 100 ms
// and notes how the page cache answered (`x-page-cache`: a kept copy, the copy from before while it
// renders, or rendered for this request), so the readers' slowest answers can be told apart. Prints
// one JSON line: bench-load.ts's Load and the probe's answers by how they were served.
// node --import tsx scripts/bench-readers.ts BASE COOKIE SECONDS CONNECTIONS PER_SECOND PATH...
import { readyThenGo } from "./bench-go";
import { type Load, paceReaders, percentile, readerPool, readPage } from "./bench-load";

export type Probe = Record<string, { n: number; p50: number; p95: number; max: number }>;

const [base, cookie, seconds, connections, perSecond, ...paths] = process.argv.slice(2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each path in turn every 100 ms until `until`, gzipped as the readers take them: ms by how served. */
async function probe(until: number): Promise<Probe> {
  const served = new Map<string, number[]>();
  for (let i = 0; Date.now() < until; i++) {
    const t0 = performance.now();
    const res = await readPage(pool, paths[i % paths.length]!, cookie!).catch(() => null);
    const how = !res ? "failed" : res.status === 200 ? (res.how ?? "not kept") : `status ${res.status}`;
    served.set(how, [...(served.get(how) ?? []), performance.now() - t0]);
    await sleep(100);
  }
  return Object.fromEntries(
    [...served].map(([how, ms]) => [
      how,
      { n: ms.length, p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), max: Math.round(Math.max(...ms)) },
    ]),
  );
}

const pool = readerPool(base!);
await readyThenGo();
const [load, probed] = await Promise.all([
  paceReaders(pool, cookie!, Number(seconds), Number(connections), paths, Number(perSecond)),
  probe(Date.now() + Number(seconds) * 1000),
]);
await pool.close();
console.log(JSON.stringify({ ...load, probe: probed } satisfies Load & { probe: Probe }));
