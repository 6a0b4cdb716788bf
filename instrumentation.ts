// Runs once when the server starts: a judge run that was running when the app last stopped goes
// on (its requests are in the database; this process is the worker of runs started from the page).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { resumeWaitingRuns } = await import("@/lib/judges/service");
  await resumeWaitingRuns().catch((e) =>
    console.error(`judge runs not resumed: ${e instanceof Error ? e.message : String(e)}`),
  );
}
