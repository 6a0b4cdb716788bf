import "server-only";
// Working a judge's queue: jobs are fetched as slots free up, claimed together (pending → asking,
// so no two workers ask the same pair; one round trip, serialized per judge so its limits hold
// across workers), read with their trajectories at the versions they were planned for, asked, and
// stored by the AnswerWriter, which batches the answers that arrive together. A job is completed
// once its request is stored: a worker that dies leaves its jobs to pg-boss's expiry and its claims
// to the lease, and another takes them over.
import type PgBoss from "pg-boss";
import { AnswerWriter, type Outcome } from "@/lib/data/judge-answers";
import {
  claimJudgeRequests,
  judgeReadCost,
  judgeSettings,
  judgeTurns,
  promptText,
  releaseClaims,
} from "@/lib/data/judge-requests";
import { workBudget } from "@/lib/server/memory-budget";
import { askJudge, JudgeRequestFailed } from "./client";
import { judgeRequest, type JudgeRequest } from "./prompt";
import { enqueueHeld, ensureQueue, type JobData, jobRequests, queueName, REQUESTS_PER_JOB } from "./queue";

/** Characters per token when fitting a trajectory to a judge's budget. */
const CHARS_PER_TOKEN = 4;

/** A claimed request's trajectory as the judge will read it, within the process's memory budget. */
async function requestFor(judge: JudgeSettings, r: Claimed): Promise<JudgeRequest> {
  const budgetChars = judge.contextTokens * CHARS_PER_TOKEN;
  const reservation = await workBudget().await(await judgeReadCost(r.trajectoryId, budgetChars));
  try {
    return judgeRequest(await promptText(r.promptVersion), await judgeTurns(r.trajectoryId, budgetChars), budgetChars);
  } finally {
    reservation.release();
  }
}

type Claimed = Awaited<ReturnType<typeof claimJudgeRequests>>["requests"][number];
type JudgeSettings = NonNullable<Awaited<ReturnType<typeof judgeSettings>>>;

/** What every outcome of a request says: which request, judge and trajectory, and what was cut. */
function outcomeBase(judge: JudgeSettings, r: Claimed, request: JudgeRequest | null) {
  return {
    requestId: r.id,
    runId: r.runId,
    judge: { id: judge.id, name: judge.name, temperature: judge.temperature, maxTokens: judge.maxTokens },
    trajectoryId: r.trajectoryId,
    trajectoryKey: r.key,
    cut: { truncated: request?.truncated ?? false, cutChars: request?.cutChars ?? 0 },
  };
}

/** A trajectory that could not be read for its request: the request fails with the reason. */
class TrajectoryUnread extends Error {
  constructor(reason: string) {
    super(`its trajectory could not be read: ${reason}`);
  }
}

/** Asks one claimed request: its answer, or the error after the client's last retry. */
async function ask(judge: JudgeSettings, r: Claimed, request: JudgeRequest): Promise<Outcome> {
  const base = outcomeBase(judge, r, request);
  try {
    const answer = await askJudge(
      {
        baseUrl: judge.baseUrl!,
        model: judge.model!,
        apiKeyEnv: judge.apiKeyEnv,
        temperature: judge.temperature,
        maxTokens: judge.maxTokens,
      },
      request.messages,
    );
    const cost =
      judge.priceInPerMillion == null
        ? null
        : (answer.tokensIn * judge.priceInPerMillion + answer.tokensOut * (judge.priceOutPerMillion ?? 0)) / 1e6;
    return { ...base, answer, cost };
  } catch (e) {
    return { ...base, error: e instanceof JudgeRequestFailed || e instanceof Error ? e.message : String(e) };
  }
}

/** Stops a judge's worker loop once the requests it holds are answered. */
export type StopWorkers = () => Promise<void>;

/**
 * Works the queues of these judges: each keeps its concurrency of requests in flight, fetching as
 * many jobs as it has free slots whenever one ends (pg-boss's own work loop waits for a whole batch
 * and then a polling interval, which leaves slots idle). Returns what stops them.
 */
export async function workJudges(
  boss: PgBoss,
  judges: ReadonlyArray<{ id: number; concurrency: number }>,
): Promise<StopWorkers> {
  let stopping = false;
  const writer = new AnswerWriter();
  const loops: Array<{ done: Promise<void> }> = [];
  for (const j of judges) {
    await ensureQueue(boss, queueName(j.id));
    loops.push({ done: judgeLoop(boss, j, writer, () => stopping) });
  }
  return async () => {
    stopping = true;
    await Promise.all(loops.map((l) => l.done));
  };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A job fetched: its requests not yet settled (stored, or found needing no answer). */
type HeldJob = { id: string; open: number };
/** A request of a fetched job, waiting for a slot. */
type Held = { id: number; trajectoryId: number | null; job: HeldJob };

/**
 * One judge's loop. A job names several requests (queue.ts): the loop holds the requests of the
 * jobs it fetched and claims as many as it has free slots; a job is completed when all its
 * requests are settled. Requests the judge has no room for (another worker holds its concurrency,
 * or its requests per minute are spent) stay held and are claimed again shortly. On stopping,
 * what is held and unclaimed goes back to the queue as new jobs.
 */
async function judgeLoop(
  boss: PgBoss,
  judge: { id: number; concurrency: number },
  writer: AnswerWriter,
  stopping: () => boolean,
): Promise<void> {
  const queue = queueName(judge.id);
  let inFlight = 0;
  let wake: (() => void) | null = null;
  const slotFreed = () => new Promise<void>((resolve) => (wake = resolve));
  let held: Held[] = [];
  /** Jobs whose requests are all settled, completed together before the next fetch. */
  const settledJobs: string[] = [];
  const settle = (job: HeldJob) => {
    job.open -= 1;
    if (job.open === 0) settledJobs.push(job.id);
  };
  const completeSettled = async () => {
    const ids = settledJobs.splice(0);
    if (ids.length) await boss.complete(queue, ids).catch((e) => console.error(`${queue}: ${message(e)}`));
  };
  const fetchJobs = async (count: number) => {
    const jobs = await boss.fetch<JobData>(queue, { batchSize: count });
    for (const j of jobs) {
      const requests = jobRequests(j.data);
      const job: HeldJob = { id: j.id, open: requests.length };
      if (!requests.length) settledJobs.push(j.id);
      for (const r of requests) held.push({ ...r, job });
    }
  };

  while (!stopping()) {
    const free = judge.concurrency - inFlight;
    if (free <= 0) {
      await slotFreed();
      continue;
    }
    try {
      const wanted = Math.ceil((free - held.length) / REQUESTS_PER_JOB);
      await Promise.all([completeSettled(), wanted > 0 ? fetchJobs(wanted) : null]);
    } catch (e) {
      console.error(`${queue}: ${message(e)}`);
    }
    if (!held.length) {
      // Idle: look again soon, or as soon as a request in flight ends.
      await Promise.race([sleep(250), slotFreed()]);
      continue;
    }
    const taken = held.splice(0, free);
    const byId = new Map(taken.map((h) => [h.id, h]));
    let requests: Claimed[] = [];
    let busy: Held[] = [];
    let settings: JudgeSettings | null = null;
    // Kept outside the try: what was claimed before a later step failed is released.
    const got: { claim?: Awaited<ReturnType<typeof claimJudgeRequests>> } = {};
    try {
      const claiming = claimJudgeRequests(judge.id, [...byId.keys()]).then((c) => {
        got.claim = c;
        return c;
      });
      let claimed: Awaited<ReturnType<typeof claimJudgeRequests>>;
      [claimed, settings] = await Promise.all([claiming, judgeSettings(judge.id)]);
      requests = settings ? claimed.requests : []; // a judge removed took its requests with it
      busy = claimed.busy.map((id) => byId.get(id)!);
      // Answered, cancelled, paused, held by another worker, or stale: nothing to ask.
      const unsettled = new Set([...requests.map((r) => r.id), ...claimed.busy]);
      for (const h of taken) if (!unsettled.has(h.id)) settle(h.job);
    } catch (e) {
      console.error(`${queue}: ${message(e)}`);
      // What was claimed goes back to pending, to be claimed again with the rest of what is held.
      await releaseClaims(got.claim?.requests.map((r) => r.id) ?? []).catch(() => {});
      held = [...taken, ...held];
      await sleep(1000);
      continue;
    }
    held = [...busy, ...held];
    for (const r of requests) {
      inFlight += 1;
      // Read one trajectory at a time (each within the memory budget), asked as soon as it is read.
      const request = await requestFor(settings!, r).catch((e: unknown) => new TrajectoryUnread(message(e)));
      void (
        request instanceof TrajectoryUnread
          ? Promise.resolve({ ...outcomeBase(settings!, r, null), error: request.message })
          : ask(settings!, r, request)
      )
        .then((outcome) => writer.write(outcome))
        .catch((e) => console.error(`judge request ${r.id}: ${message(e)}`))
        .finally(() => {
          settle(byId.get(r.id)!.job);
          inFlight -= 1;
          wake?.();
        });
    }
    if (busy.length) await Promise.race([sleep(500), slotFreed()]);
  }
  while (inFlight > 0) await slotFreed();
  // What is held goes back to the queue for whichever worker is next.
  if (held.length) {
    await enqueueHeld(boss, queue, held);
    for (const h of held) settle(h.job);
    held = [];
  }
  await completeSettled();
}
