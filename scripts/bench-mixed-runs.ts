// npm run bench:mixed -- [--runs N] [--seconds S] [--connections C] [--port P]
// With DATABASE_URL naming a study on PostgreSQL (`npm run bench -- --keep` leaves one): issue 31's
// working study (bench-mixed.ts) run N times on it, each with judges and annotators of its own,
// then each goal's figure over the runs (median, least, most): one run's figures move by as much
// as a change does, so a goal is read off several. Prints each run's rows, then the summary, then
// every run's figures as one JSON line.
import { parseArgs } from "node:util";
import pg from "pg";
import { closeCurrentDb, connect, describeTarget, setCurrentDb } from "@/lib/db/connect";
import { addBenchAccount, BENCH_ACCOUNT, startApp } from "./bench-app";
import { forgetMixed } from "./bench-forget";
import { type MixedFigures, mixedLoad, mixedRows, type PairFigures, tableRow } from "./bench-mixed";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    seconds: { type: "string", default: "40" },
    connections: { type: "string", default: "50" },
    port: { type: "string", default: "3311" },
  },
});
const url = process.env.DATABASE_URL;
if (!url?.startsWith("postgres")) {
  console.error("bench:mixed needs DATABASE_URL naming a study on PostgreSQL (npm run bench -- --keep leaves one)");
  process.exit(2);
}
const target = { kind: "postgres", url } as const;
const log = (s: string) => console.error(`[bench:mixed] ${s}`);

// The study's long trajectory (the timeline the readers load) and the bench's researcher.
const handle = connect(target);
setCurrentDb(handle);
const [long] = await handle.prisma.$queryRawUnsafe<Array<{ id: number }>>(
  `SELECT id FROM trajectory WHERE "externalId" = 'bench-0'`,
);
if (!long) throw new Error("no trajectory bench-0: DATABASE_URL should name the study npm run bench -- --keep left");
const existing = await handle.prisma.user.findUnique({ where: { email: BENCH_ACCOUNT.email } });
if (!existing) await addBenchAccount();
const bench = await handle.prisma.user.findUniqueOrThrow({ where: { email: BENCH_ACCOUNT.email } });
// What earlier runs left (an interrupted one left its judge runs running: the app would resume them
// at its start against a fake provider that is gone, on its own cores through the windows measured).
const left = await forgetMixed("mix-");
if (left.judges + left.annotators)
  log(`removed what earlier runs left: ${left.judges} judges, ${left.annotators} annotators`);
await closeCurrentDb();

/** VACUUM (ANALYZE) of the whole study, on a connection of its own. */
async function vacuum() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("VACUUM (ANALYZE)");
  await client.end();
}

const runs: MixedFigures[] = [];
const app = await startApp(target, Number(values.port), BENCH_ACCOUNT);
try {
  // Each page loaded once first, as bench.ts does: a new process's first reader computes the rules'
  // hits by condition and renders the page cold (seconds), which is a start, not the working study.
  for (const path of ["/results", `/trajectories/${long.id}`])
    await fetch(`${app.base}${path}`, { headers: { cookie: app.cookie } }).then((r) => r.arrayBuffer());
  const tag = Date.now().toString(36);
  for (let i = 1; i <= Number(values.runs); i++) {
    // Each run plans a judge run over the whole study three times a pace and rewrites every
    // trajectory's panel columns as each is put in force: on a server with autovacuum off (this
    // machine's) the dead rows would slow each run more than the last (a judge run alone fell from
    // 160 to 54 votes/s over six runs). Vacuumed first, as autovacuum would keep it.
    log(`run ${i} of ${values.runs}: vacuuming the study first`);
    await vacuum();
    const figures = await mixedLoad({
      target,
      base: app.base,
      cookie: app.cookie,
      researcher: { id: bench.id, handle: bench.handle, role: "RESEARCHER" },
      timeline: `/trajectories/${long.id}`,
      seconds: Number(values.seconds),
      connections: Number(values.connections),
      log,
      tag: `${tag}${i}`,
    });
    if (!figures) throw new Error("the mixed load runs on PostgreSQL only");
    runs.push(figures);
    console.log(`\nrun ${i}`);
    for (const r of mixedRows(figures, Number(values.connections))) console.log(tableRow(...r));
  }
} finally {
  // What the app said on its standard error (a failed fold, a lost connection), for the reader.
  const said = app.log().trim();
  if (said) console.log(`\nthe app's standard error (last 40 lines):\n${said.split("\n").slice(-40).join("\n")}`);
  await app.stop();
}

/** A goal's figure over the runs: median, least and most (a run without it, say no reader answered, left out). */
function spread(of: (f: PairFigures) => number, pair: (m: MixedFigures) => PairFigures) {
  const xs = runs
    .map((m) => of(pair(m)))
    .filter((x) => Number.isFinite(x)) // a percentile of no values is NaN, null once through JSON
    .sort((a, b) => a - b);
  const missing = runs.length - xs.length;
  const without = missing ? `; ${missing} of ${runs.length} runs without it` : "";
  if (!xs.length) return `none${without}`;
  const mid = xs.length / 2;
  const median = xs.length % 2 ? xs[Math.floor(mid)]! : (xs[mid - 1]! + xs[mid]!) / 2;
  return `${+median.toFixed(3)} (${xs[0]}–${xs.at(-1)})${without}`;
}
console.log(`\n${describeTarget(target)}: ${runs.length} runs of ${values.seconds} s windows, median (least–most)`);
for (const [name, pair] of [
  ["200 ms", (m: MixedFigures) => m],
  ["paced", (m: MixedFigures) => m.paced],
] as const) {
  console.log(`${name}: judge run's share of alone   ${spread((f) => f.judge_mixed_share_of_alone, pair)}`);
  console.log(`${name}: readers p95 ms                ${spread((f) => f.readers.p95, pair)}`);
  console.log(`${name}: label saves p95 ms            ${spread((f) => f.label_save_p95_ms, pair)}`);
  console.log(
    `${name}: writes lost                   ${spread(
      (f) => f.votes_answered - f.votes_written + (f.label_saves - f.labels_written),
      pair,
    )}`,
  );
  console.log(`${name}: seconds with a slow save      ${spread((f) => f.watch.stalls.length, pair)}`);
}
console.log(JSON.stringify(runs));
process.exit(0);
