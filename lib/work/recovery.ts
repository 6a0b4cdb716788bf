import "server-only";
// What a server process does as it starts (decision 32).
import { sweepInterruptedImports } from "@/lib/data/import/interrupted";
import { currentDb } from "@/lib/db/connect";
import { removeOrphanUploads } from "@/lib/server/recovery";
import { retrying } from "@/lib/server/retry";
import { resumeWaitingRuns } from "@/lib/work/judge-runs/service";
import { watchRuleHits } from "@/lib/work/rule-scan/watch";

const SWEEP_EVERY_MS = 60_000;
const say = (what: string, e: unknown) => console.error(`${what}: ${e instanceof Error ? e.message : String(e)}`);

export async function recoverAtStart(): Promise<void> {
  try {
    const left = removeOrphanUploads();
    if (left.folders)
      console.error(`removed ${left.folders} upload folder(s) of stopped processes (${left.bytes} bytes)`);
  } catch (e) {
    say("upload folders not swept", e);
  }
  const sweep = async () => {
    const ids = await sweepInterruptedImports();
    if (ids.length) console.error(`import(s) ${ids.join(", ")} marked interrupted: their process had stopped`);
  };
  await sweep().catch((e) => say("interrupted imports not swept", e));
  if (currentDb().pool)
    setInterval(() => void sweep().catch((e) => say("interrupted imports not swept", e)), SWEEP_EVERY_MS).unref();

  // A resumption that fails (the database not ready yet, say) is tried again, five times, in the background.
  void retrying(resumeWaitingRuns, {
    attempts: 5,
    delay: (n) => 1000 * 2 ** n,
    onFailure: (e, n, again) =>
      say(
        again
          ? `judge runs not resumed (attempt ${n} of 5; trying again)`
          : "judge runs not resumed (the Judges page resumes them)",
        e,
      ),
  });
  watchRuleHits();
}
