import "server-only";
// The judge queue in the app's server process; requests a dead process left asking go back to pending.
import type PgBoss from "pg-boss";
import { judgeConcurrency, requeueAsking, runsWaiting } from "@/lib/data/judge-requests";
import type { QueuedRequest } from "@/lib/data/judge-runs";
import { pendingRequests } from "@/lib/data/judge-runs";
import { appQueue } from "@/lib/work/queue";
import { enqueue } from "./queue";
import { workJudges } from "./worker";

type Service = { boss: PgBoss; working: Set<number> };
const holder = globalThis as unknown as { __shortcutAuditJudges?: Promise<Service> };

async function start(): Promise<Service> {
  const boss = await appQueue();
  const service: Service = { boss, working: new Set() };
  // This process is the only worker of runs started here: what was being asked when it stopped is asked again.
  await requeueAsking();
  await submit(service, await pendingRequests());
  return service;
}

async function submit(service: Service, requests: readonly QueuedRequest[]): Promise<void> {
  const ids = [...new Set(requests.map((r) => r.judgeId))].filter((id) => !service.working.has(id));
  if (ids.length) {
    const judges = await judgeConcurrency({ ids });
    await workJudges(service.boss, judges);
    for (const j of judges) service.working.add(j.id);
  }
  await enqueue(service.boss, requests);
}

function service(): Promise<Service> {
  holder.__shortcutAuditJudges ??= start().catch((e) => {
    holder.__shortcutAuditJudges = undefined;
    throw e;
  });
  return holder.__shortcutAuditJudges;
}

/** Queues requests and makes sure their judges are worked in this process. */
export async function submitRequests(requests: readonly QueuedRequest[]): Promise<void> {
  const s = await service();
  await submit(s, requests);
}

/** Starts the queue when a running run has requests waiting and nothing works them here yet. */
export async function resumeWaitingRuns(): Promise<void> {
  if (holder.__shortcutAuditJudges) return;
  if (await runsWaiting()) await service();
}
