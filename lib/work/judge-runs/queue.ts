import "server-only";
// Judge requests on the job queue (decision 26): a job names judge_request rows; the rows are the truth.
import type PgBoss from "pg-boss";
import { v7 as uuidv7 } from "uuid";
import type { QueuedRequest } from "@/lib/data/judge-runs";
import { ensureQueue } from "@/lib/work/queue";

export const queueName = (judgeId: number) => `judge-${judgeId}`;

/** A job: several requests of one judge, sharing the queue's bookkeeping (older jobs named one). */
export type JobData = { ids: number[]; trajectoryIds: number[] } | { id: number; trajectoryId?: number };
export const REQUESTS_PER_JOB = 8;

export function jobRequests(data: JobData): Array<{ id: number; trajectoryId: number | null }> {
  if ("ids" in data) return data.ids.map((id, i) => ({ id, trajectoryId: data.trajectoryIds[i] || null }));
  return [{ id: data.id, trajectoryId: data.trajectoryId ?? null }];
}

function jobsOf(requests: ReadonlyArray<{ id: number; trajectoryId: number | null }>): JobData[] {
  const jobs: JobData[] = [];
  for (let i = 0; i < requests.length; i += REQUESTS_PER_JOB) {
    const chunk = requests.slice(i, i + REQUESTS_PER_JOB);
    jobs.push({ ids: chunk.map((r) => r.id), trajectoryIds: chunk.map((r) => r.trajectoryId ?? 0) });
  }
  return jobs;
}

/** Inserts jobs fetched in the order given: time-ordered ids (UUIDv7), as jobs of one insert share their time. */
async function insertJobs(boss: PgBoss, queue: string, jobs: readonly JobData[]): Promise<void> {
  await ensureQueue(boss, queue);
  for (let i = 0; i < jobs.length; i += 1000)
    await boss.insert(jobs.slice(i, i + 1000).map((data) => ({ id: uuidv7(), name: queue, data })));
}

export async function enqueue(boss: PgBoss, requests: readonly QueuedRequest[]): Promise<void> {
  const byJudge = new Map<number, QueuedRequest[]>();
  for (const r of requests) {
    const list = byJudge.get(r.judgeId) ?? [];
    list.push(r);
    byJudge.set(r.judgeId, list);
  }
  for (const [judgeId, list] of byJudge) await insertJobs(boss, queueName(judgeId), jobsOf(list));
}

/** Puts back requests a stopping worker held without asking. */
export async function enqueueHeld(
  boss: PgBoss,
  queue: string,
  held: ReadonlyArray<{ id: number; trajectoryId: number | null }>,
): Promise<void> {
  await insertJobs(boss, queue, jobsOf(held));
}
