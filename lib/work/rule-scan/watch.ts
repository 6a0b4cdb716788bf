import "server-only";
// The rules' hits kept in the background for whatever any process wrote: the scan asked for on the
// job queue (jobs.ts) whenever some trajectory is not yet read by every rule in force.
import { ruleHitsCoverage } from "@/lib/data/rule-matches";
import { requestRuleScan } from "./jobs";

/** How often a server process looks for hits not yet kept (imports by other processes, rules written). */
const WATCH_EVERY_MS = 2_000;

/**
 * A server process's watch: every two seconds, the coverage (one read of the data versions while
 * nothing moves), and the scan's job asked for when something is not yet read. So the hits of whatever any
 * process wrote (an import from the page, the API or the command line, a rule from the Rules page or
 * a rules file) are kept in the background, not first when a reader asks. A failed read is said once
 * until one succeeds.
 */
export function watchRuleHits(log: (line: string) => void = console.error): () => void {
  let failing = false;
  let looking = false; // one look at a time: the embedded database may be held by an import for minutes
  const look = async () => {
    if (looking) return;
    looking = true;
    try {
      const { unscanned } = await ruleHitsCoverage();
      failing = false;
      if (unscanned) await requestRuleScan();
    } catch (e) {
      if (!failing) log(`rule hits: coverage not read (${e instanceof Error ? e.message : String(e)})`);
      failing = true;
    } finally {
      looking = false;
    }
  };
  void look();
  const timer = setInterval(() => void look(), WATCH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
