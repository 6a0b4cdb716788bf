import "server-only";
// Cohort mode: the runs of one task asked in one request, the answer read back to each run's request.
import type { Judge } from "@/generated/prisma/client";
import type { Outcome } from "@/lib/data/judge-answers";
import {
  claimCohort,
  type claimJudgeRequests,
  cohortSiblings,
  judgeReadCost,
  judgeTurns,
  promptOf,
} from "@/lib/data/judge-requests";
import { cohortLabels, splitCohortAnswer } from "@/lib/domain/cohort-answer";
import { formatBytes } from "@/lib/domain/format";
import { MAX_COHORT } from "@/lib/domain/prompt-settings";
import { askPriced, EncodedMessages } from "@/lib/judges/client";
import { cohortRequest } from "@/lib/judges/prompt";
import { workBudget } from "@/lib/server/memory-budget";

type Claimed = Awaited<ReturnType<typeof claimJudgeRequests>>["requests"][number];

/** What every outcome of a request says: which request, judge and trajectory, and how much was cut. */
export function outcomeBase(judge: Judge, r: Claimed, cutChars: number) {
  return {
    requestId: r.id,
    runId: r.runId,
    judge: { id: judge.id, name: judge.name, temperature: judge.temperature, maxTokens: judge.maxTokens },
    trajectoryId: r.trajectoryId,
    trajectoryKey: r.key,
    promptVersion: r.promptVersion,
    cut: { truncated: cutChars > 0, cutChars },
  };
}

/** The claimed requests asked one by one, and those asked together: by run, task (and model) of a cohort version. */
export async function cohorts(
  judgeId: number,
  requests: readonly Claimed[],
): Promise<{ single: Claimed[]; groups: Claimed[][] }> {
  const single: Claimed[] = [];
  const groups = new Map<string, Claimed[]>();
  for (const r of requests) {
    const { cohort } = (await promptOf(r.promptVersion)).settings;
    if (cohort === "off") {
      single.push(r);
      continue;
    }
    const k = [r.runId, r.promptVersion, r.key.benchmark, r.key.task, cohort === "model" ? r.key.model : ""].join("\0");
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const out: Claimed[][] = [];
  for (const group of groups.values()) {
    const slices: Claimed[][] = [];
    for (let i = 0; i < group.length; i += MAX_COHORT) slices.push(group.slice(i, i + MAX_COHORT));
    const last = slices.at(-1)!;
    const { cohort } = (await promptOf(last[0]!.promptVersion)).settings;
    const room = MAX_COHORT - last.length;
    const ids = room > 0 ? await cohortSiblings(last[0]!, judgeId, cohort === "model", room) : [];
    for (const slice of slices) {
      const more = await claimCohort(
        judgeId,
        slice[0]!.id,
        slice === last ? ids : [],
        slice.slice(1).map((r) => r.id),
      );
      slice.push(...more.filter((m) => !slice.some((r) => r.id === m.id)));
    }
    out.push(...slices);
  }
  return { single, groups: out };
}

/** Asks a cohort once; each run's request gets its part of the answer, an even share of tokens, time and cost. */
export async function askCohort(judge: Judge, group: readonly Claimed[], budgetChars: number): Promise<Outcome[]> {
  const labels = cohortLabels(group.length);
  const { text, settings } = await promptOf(group[0]!.promptVersion);
  const share = Math.floor(budgetChars / group.length);
  const cuts = new Map<string, number>();
  const base = (r: Claimed, i: number) => outcomeBase(judge, r, cuts.get(labels[i]!) ?? 0);
  const costs = await Promise.all(group.map((r) => judgeReadCost(r.trajectoryId, share)));
  const bytes = costs.reduce((a, c) => a + c.bytes, 0);
  const budget = workBudget();
  if (bytes > budget.total)
    return group.map((r, i) => ({
      ...base(r, i),
      error: `the cohort's ${group.length} trajectories would take ${formatBytes(bytes)} to read, more than the budget`,
    }));
  const reservation = await budget.await(bytes);
  let messages: EncodedMessages;
  try {
    const runs = await Promise.all(
      group.map(async (r, i) => ({ label: labels[i]!, turns: await judgeTurns(r.trajectoryId, share) })),
    );
    const built = cohortRequest(text, runs, budgetChars, settings);
    for (const [label, cut] of built.cut) cuts.set(label, cut);
    messages = new EncodedMessages(built.messages);
  } catch (e) {
    const error = `its trajectories could not be read: ${e instanceof Error ? e.message : String(e)}`;
    return group.map((r, i) => ({ ...base(r, i), error }));
  } finally {
    reservation.release();
  }
  try {
    const { answer, cost: whole } = await askPriced(judge, messages);
    const parts = splitCohortAnswer(answer.raw, labels);
    const n = group.length;
    const cost = whole === null ? null : whole / n;
    return group.map((r, i) => ({
      ...base(r, i),
      answer: {
        ...answer,
        raw: parts.get(labels[i]!) ?? `The cohort's answer (${n} runs) gave nothing for run ${labels[i]}.`,
        tokensIn: Math.round(answer.tokensIn / n),
        tokensOut: Math.round(answer.tokensOut / n),
      },
      cost,
    }));
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    return group.map((r, i) => ({ ...base(r, i), error }));
  }
}
