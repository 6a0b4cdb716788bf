import "server-only";
// The rules' scan over the study, step after step, once per process and database at a time.
import { type RuleHitsRead, ruleHitsCoverage } from "@/lib/data/rule-matches";
import { scanStep } from "@/lib/data/rule-scan-step";
import { currentDb, type DbHandle } from "@/lib/db/connect";
import { currentScope, outsideScope } from "@/lib/db/scope";

/** How long a reader waits for the scan, by default... */
export const READER_WAIT_MS = 3_000;
/** ...when no more trajectories than this are left to read (a few steps); past it, it does not wait. */
const READER_WAITS_FOR = 2_000;
/** After a failed step, how long the scan rests before a reader may start it again. */
const REST_AFTER_FAILURE_MS = 30_000;

type Runner = { running: Promise<void> | null; failedAt: number };
const runners = new WeakMap<DbHandle, Runner>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the scan to the end, once per process at a time; never rejects (a failed step rests a while). */
export function scanRuleHits(log: (line: string) => void = console.error): Promise<void> {
  const handle = currentDb();
  let runner = runners.get(handle);
  if (!runner) runners.set(handle, (runner = { running: null, failedAt: -Infinity }));
  if (runner.running) return runner.running;
  if (performance.now() - runner.failedAt < REST_AFTER_FAILURE_MS) return Promise.resolve();
  const r = runner;
  r.running = outsideScope(async () => {
    let waited = 0;
    try {
      for (;;) {
        const step = await scanStep();
        if (step === "done") return;
        if (step === "more") waited = 0;
        else if ((waited += 250) > 60_000) return;
        else await sleep(250);
      }
    } catch (e) {
      r.failedAt = performance.now();
      log(`rule hits: the scan stopped (${e instanceof Error ? e.message : String(e)}); it starts again later`);
    }
  }).finally(() => {
    r.running = null;
  });
  return r.running;
}

/** How far the scan has come, starting it when behind; a reader waits up to `waitMs` when little is left. */
export async function ruleHitsCaughtUp(waitMs = READER_WAIT_MS): Promise<RuleHitsRead> {
  const first = await ruleHitsCoverage();
  if (!first.unscanned || currentScope()) return first;
  if (first.unscanned > READER_WAITS_FOR && waitMs <= READER_WAIT_MS) {
    void scanRuleHits();
    return first;
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([scanRuleHits(), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  return ruleHitsCoverage();
}

/** Before the list reads a rule filter (a rule by name, a category of rules): the scan waited for, as above. */
export async function caughtUpFor(filter: { suspect?: unknown; rule?: unknown }): Promise<void> {
  if (filter.suspect || filter.rule) await ruleHitsCaughtUp();
}
