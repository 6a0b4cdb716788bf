// A child of bench-mixed.ts: annotators saving a label a second each (each at its own moment in the
// second), for SECONDS seconds, through the labelling queue's own save (submitLabel), in a process of
// their own as the app's would be (so the judge run's event loop beside them does not delay their
// saves), from the start signal (bench-go.ts).
// Prints one JSON line: each save's milliseconds and when it ended, the saves that failed, each
// statement's milliseconds by its opening words (what a save waits for), and a bare round trip's,
// asked ten times a second beside them (what any statement waits for under the same load).
// node --conditions=react-server --import tsx scripts/bench-annotators.ts DATABASE_URL SECONDS PEOPLE_JSON
import pg from "pg";
import type { Actor } from "@/lib/auth/permissions";
import { type LabelForm, submitLabel } from "@/lib/data/queue";
import { closeCurrentDb, connect, setCurrentDb } from "@/lib/db/connect";
import { readyThenGo } from "./bench-go";

export type Annotator = { actor: Actor; items: number[]; studyId: number };

const [url, seconds, people] = process.argv.slice(2);
setCurrentDb(connect({ kind: "postgres", url: url! }));
/** Every statement's milliseconds, by its first words (a save's are few and distinct). */
const statements: Record<string, number[]> = {};
const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string })?.text ?? "");
  const t0 = performance.now();
  const name = text.replace(/\s+/g, " ").trim().slice(0, 32);
  const done = () => (statements[name] ??= []).push(performance.now() - t0);
  // A pool's query (a statement on its own) calls its client's with a callback.
  const last = args.length - 1;
  if (typeof args[last] === "function") {
    const callback = args[last] as (err: unknown, ...rest: unknown[]) => void;
    args[last] = (err: unknown, ...rest: unknown[]) => {
      if (!err) done();
      callback(err, ...rest);
    };
  }
  const r = query.apply(this, args) as Promise<unknown> | undefined;
  if (typeof r?.then === "function") void r.then(done).catch(() => {});
  return r;
} as never;
await readyThenGo();
const stopAt = Date.now() + Number(seconds) * 1000;
const saves: number[] = [];
/** When each save ended (ms since the epoch), beside `saves`: a stall's second is found by it. */
const at: number[] = [];
let errors = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const verdicts: LabelForm["verdicts"] = {
  UPSTREAM: "NOT_ATTEMPTED",
  LOCAL_GIT: "ATTEMPTED",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
};
const pings: number[] = [];
const ping = new pg.Client({ connectionString: url });
await ping.connect();
const pinging = (async () => {
  while (Date.now() < stopAt) {
    const t0 = performance.now();
    await query.call(ping, "SELECT 1");
    pings.push(performance.now() - t0);
    await sleep(100);
  }
})();
await Promise.all(
  // Each at a moment of its own in the second, as people are: started together, the ten saves came
  // at once every second and waited for each other (a statement 3 ms at p50 against a bare round
  // trip's 0.5).
  (JSON.parse(people!) as Annotator[]).map(async ({ actor, items, studyId }, i, all) => {
    await sleep((i * 1000) / all.length);
    for (const trajectoryId of items) {
      if (Date.now() >= stopAt) return;
      const next = Date.now() + 1000;
      const t0 = performance.now();
      try {
        await submitLabel(actor, { studyId, trajectoryId, verdicts, evidence: [], note: null, base: "" });
        saves.push(performance.now() - t0);
        at.push(Date.now());
      } catch {
        errors += 1;
      }
      await sleep(Math.max(0, next - Date.now()));
    }
  }),
);
await pinging;
await ping.end();
await closeCurrentDb();
console.log(JSON.stringify({ saves, at, errors, statements, pings }));
