import "server-only";
import type { QueuedRequest } from "@/lib/data/judge-runs";
// Starting and following a judge run: the one way the Judges page and `judge run` start a run (plan
// it, then queue its requests where they will be worked: the app's judge service, or the command
// line's own workers), and the way the command line follows one to its end. The queries are
// lib/data/judge-runs.ts's.
import { finishRun, planRun, type RunPlan, type RunProgress, runProgress } from "@/lib/data/judge-runs";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";

/** Plans a run of these judges over the trajectories of `filter` and hands its requests to `queue`. */
export async function startRun(
  judges: readonly string[],
  filter: TrajectoryFilter,
  by: string,
  queue: (requests: readonly QueuedRequest[]) => Promise<void>,
): Promise<RunPlan> {
  const plan = await planRun(judges, filter, by);
  await queue(plan.requests);
  return plan;
}

/**
 * Follows a run until nothing of it is left to ask, reporting its progress every `everyMs`, then
 * ends it: done, unless it was cancelled or paused meanwhile (on the Judges page, by `judge cancel`),
 * which it stays. Answers the run's status at the end and its last progress.
 */
export async function followRun(
  runId: number,
  report: (p: RunProgress) => void,
  everyMs = 1000,
): Promise<{ status: string; progress: RunProgress }> {
  for (;;) {
    const progress = await runProgress(runId);
    report(progress);
    if (!progress.pending && !progress.asking) return { status: await finishRun(runId), progress };
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
