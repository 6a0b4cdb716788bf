import "server-only";
// The durable queue judge requests go through: pg-boss on the app's own database (decision 26), so
// any number of worker processes share one run through PostgreSQL, and the embedded database runs
// it in the one process that holds it. A job names a judge_request row; the row is the truth.
import PgBoss from "pg-boss";
import { v7 as uuidv7 } from "uuid";
import type { QueuedRequest } from "@/lib/data/judge-runs";
import { currentDb } from "@/lib/db/connect";

export const queueName = (judgeId: number) => `judge-${judgeId}`;

/** A pg-boss started on the current database (its own schema, `pgboss`). */
export async function openQueue(): Promise<PgBoss> {
  const handle = currentDb();
  const engine = handle.pglite;
  const boss = engine
    ? new PgBoss({
        schema: "pgboss",
        db: {
          // pg-boss sends its schema as several statements without parameters: those go through exec.
          async executeSql(text: string, values?: unknown[]) {
            if (values?.length) return engine.query(text, values as never[]);
            const results = await engine.exec(text);
            return { rows: results.at(-1)?.rows ?? [] };
          },
        },
      })
    : new PgBoss({ connectionString: (handle.target as { url: string }).url, schema: "pgboss", max: 4 });
  boss.on("error", (e) => console.error(`judge queue: ${e.message}`));
  await boss.start();
  return boss;
}

export type { QueuedRequest };

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

/** Queue creations of this process, one after another (see ensureQueue). */
let creating: Promise<unknown> = Promise.resolve();

/**
 * Creates a judge's queue if it does not exist. pg-boss makes each queue a partition of its job
 * table: two made at the same moment deadlock in PostgreSQL. So this process makes them one at a
 * time, and one that still meets another process's creation is tried again, a little later.
 */
export function ensureQueue(boss: PgBoss, queue: string): Promise<void> {
  const made = creating.then(async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return void (await boss.createQueue(queue));
      } catch (e) {
        const deadlock = (e as { code?: string }).code === "40P01" || /deadlock detected/.test(String(e));
        if (!deadlock || attempt === 5) throw e;
        await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
      }
    }
  });
  creating = made.catch(() => {});
  return made;
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
