import "server-only";
// Judge requests on the job queue (lib/work/queue.ts, decision 26): any number of worker processes
// share one run through PostgreSQL. A job names judge_request rows; the rows are the truth.
import type PgBoss from "pg-boss";
import { v7 as uuidv7 } from "uuid";
import type { QueuedRequest } from "@/lib/data/judge-runs";
import { ensureQueue } from "@/lib/work/queue";

export const queueName = (judgeId: number) => `judge-${judgeId}`;

/**
 * What a job carries: several requests of one judge, so the queue's own bookkeeping (a fetch and a
 * completion) is shared by REQUESTS_PER_JOB requests. Jobs of earlier versions named one request.
 */
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

/**
 * Inserts jobs to be fetched in the order given. pg-boss fetches by creation time, then by id, and
 * the jobs of one insert share their creation time: each gets a time-ordered id (UUIDv7, increasing
 * within the process), where random ones would have a judge take them in a random order and the
 * judges of a panel apart from each other on the list they share (shared-reads.ts).
 */
async function insertJobs(boss: PgBoss, queue: string, jobs: readonly JobData[]): Promise<void> {
  await ensureQueue(boss, queue);
  for (let i = 0; i < jobs.length; i += 1000)
    await boss.insert(jobs.slice(i, i + 1000).map((data) => ({ id: uuidv7(), name: queue, data })));
}

/** Queues requests, each once. */
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
