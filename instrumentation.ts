// Runs once when a server process starts. First what a process that died left behind: its imports
// marked interrupted, its upload folders removed (lib/data/recovery.ts, lib/server/recovery.ts); on
// PostgreSQL, where other processes may die while this one runs, the imports are swept again every
// minute. Then a judge run that was running when the app last stopped goes on (its requests are in
// the database; this process is the worker of runs started from the page); a resumption that fails
// (the database not ready yet, say) is tried again, five times, a little later each time. The rules'
// hits not yet kept (trajectories imported, rules written, by this process or another) are scanned
// in the background, looked for every two seconds (lib/server/rule-watch.ts).
const SWEEP_EVERY_MS = 60_000;

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { removeOrphanUploads } = await import("@/lib/server/recovery");
  const { sweepInterruptedImports } = await import("@/lib/data/recovery");
  const { currentDb } = await import("@/lib/db-connect");
  const { resumeWaitingRuns } = await import("@/lib/judges/service");
  const { retrying } = await import("@/lib/server/retry");
  const { watchRuleHits } = await import("@/lib/server/rule-watch");
  const say = (what: string, e: unknown) => console.error(`${what}: ${e instanceof Error ? e.message : String(e)}`);

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

  // In the background: the server answers meanwhile.
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
