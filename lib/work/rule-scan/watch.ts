import "server-only";
// The rules' hits kept in the background: the scan's job asked for whenever something is not yet read.
import { ruleHitsCoverage } from "@/lib/data/rule-matches";
import { requestRuleScan } from "./jobs";

/** How often a server process looks for hits not yet kept (imports by other processes, rules written). */
const WATCH_EVERY_MS = 2_000;

/** Every two seconds, asks for the scan's job when something is not yet read, whoever wrote it. */
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
