import "server-only";
// Starting a judge run and following one to its end.
import type { QueuedRequest } from "@/lib/data/judge-runs";
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

/** Follows a run until nothing is left, reporting every `everyMs`, then ends it unless cancelled or paused. */
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
