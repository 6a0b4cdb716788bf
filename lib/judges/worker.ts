import "server-only";
// Working a judge's queue: jobs are fetched as slots free up, claimed together (pending → asking,
// so no two workers ask the same pair; one round trip, serialized per judge so its limits hold
// across workers), read with their trajectories at the versions they were planned for, asked, and
// stored by the AnswerWriter, which batches the answers that arrive together. A job is completed
// once its request is stored: a worker that dies leaves its jobs to pg-boss's expiry and its claims
// to the lease, and another takes them over.
import type PgBoss from "pg-boss";
import { db } from "@/lib/db";
import type { NaturalKey } from "@/lib/import/interchange";
import { AnswerWriter, type Outcome } from "./answers";
import { askJudge, JudgeRequestFailed } from "./client";
import { Prisma } from "@/generated/prisma/client";
import { workBudget } from "@/lib/server/memory-budget";
import { CUT_MARKER_PARTS, judgeRequest, type JudgeRequest, type JudgeTurn } from "./prompt";
import { enqueueHeld, ensureQueue, type JobData, jobRequests, queueName, REQUESTS_PER_JOB } from "./queue";

/** Characters per token when fitting a trajectory to a judge's budget. */
const CHARS_PER_TOKEN = 4;

/**
 * One trajectory's turns (each message with its calls, in one query), every text longer than
 * `capChars` read already cut in the middle to it: a judge never reads more than its budget of one
 * text, so a trajectory of one 100 MB output costs the worker what its budget does. The output's cut
 * is counted (prompt.ts marks it); a longer reasoning, message or call input gets the marker here.
 */
async function turnsOf(trajectoryId: number, capChars: number): Promise<JudgeTurn[]> {
  const head = Math.ceil(capChars / 2);
  const tail = capChars - head;
  const [open, close] = CUT_MARKER_PARTS;
  // A text cut with its marker (reasoning, messages, call inputs); outputs are cut bare and counted.
  const cut = (col: Prisma.Sql) => Prisma.sql`CASE WHEN length(${col}) > ${capChars}
      THEN left(${col}, ${head}) || ${open} || to_char(length(${col}) - ${capChars}, 'FM999,999,999,999') || ${close}
           || right(${col}, ${tail}) ELSE ${col} END`;
  return db().$queryRaw<JudgeTurn[]>`
    SELECT m.step, lower(m.role::text) AS role,
           CASE WHEN m.role = 'tool' AND length(m.content) > ${capChars}
                THEN left(m.content, ${head}) || right(m.content, ${tail})
                WHEN m.role = 'tool' THEN m.content ELSE ${cut(Prisma.sql`m.content`)} END AS content,
           CASE WHEN m.role = 'tool' THEN greatest(length(m.content) - ${capChars}, 0)::int ELSE 0 END AS "contentCut",
           ${cut(Prisma.sql`m.reasoning`)} AS reasoning,
           coalesce((SELECT json_agg(json_build_object('name', c.name, 'input', ${cut(Prisma.sql`c.input`)})
                                     ORDER BY c.seq)
                       FROM tool_call c WHERE c."trajectoryId" = m."trajectoryId" AND c."messageSeq" = m.seq),
                    '[]'::json) AS calls
      FROM message m WHERE m."trajectoryId" = ${trajectoryId}
     ORDER BY m.step, m.seq`;
}

/**
 * The most a trajectory's read may hold: each of its texts up to the cap, counted in bytes as
 * stored, twice (the rows, then the request built from them). Reserved from the process's memory
 * budget while it is read and its request built.
 */
async function readCost(trajectoryId: number, capChars: number): Promise<number> {
  const [row] = await db().$queryRaw<Array<{ bytes: bigint | null }>>`
    SELECT (SELECT coalesce(sum(least(octet_length(m.content), ${capChars} * 4)
                              + least(coalesce(octet_length(m.reasoning), 0), ${capChars} * 4)), 0)
              FROM message m WHERE m."trajectoryId" = ${trajectoryId})
         + (SELECT coalesce(sum(least(octet_length(c.input), ${capChars} * 4)), 0)
              FROM tool_call c WHERE c."trajectoryId" = ${trajectoryId}) AS bytes`;
  return 2 * Number(row?.bytes ?? 0);
}

/** A claimed request's trajectory as the judge will read it, within the process's memory budget. */
async function requestFor(judge: JudgeSettings, r: Claimed): Promise<JudgeRequest> {
  const budgetChars = judge.contextTokens * CHARS_PER_TOKEN;
  const reservation = await workBudget().await(await readCost(r.trajectoryId, budgetChars));
  try {
    return judgeRequest(await promptText(r.promptVersion), await turnsOf(r.trajectoryId, budgetChars), budgetChars);
  } finally {
    reservation.release();
  }
}

/** A claim older than this is a worker that died: another takes the request over. */
const LEASE_MINUTES = 10;

type ClaimRow = { id: number; outcome: "claimed" | "busy"; runId: number; trajectoryId: number } & {
  promptVersion: number;
  fresh: boolean;
} & NaturalKey;

/**
 * Claims what it can of these requests of one judge (claim_judge_requests, in the migrations), with
 * what asking them needs; those whose trajectory was re-imported since they were planned are stale.
 */
async function claim(judgeId: number, ids: readonly number[]) {
  const rows = await db().$queryRaw<ClaimRow[]>`
    SELECT * FROM claim_judge_requests(${judgeId}::int, ${ids}::int[], ${LEASE_MINUTES}::int)`;
  const claimed = rows.filter((r) => r.outcome === "claimed");
  const stale = claimed.filter((r) => !r.fresh).map((r) => r.id);
  if (stale.length) await db().$executeRaw`UPDATE judge_request SET status = 'STALE' WHERE id = ANY(${stale}::int[])`;
  return {
    busy: rows.filter((r) => r.outcome === "busy").map((r) => r.id),
    requests: claimed
      .filter((r) => r.fresh)
      .map(({ benchmark, model, task, network, prompt, run, ...r }) => ({
        id: r.id,
        runId: r.runId,
        trajectoryId: r.trajectoryId,
        promptVersion: r.promptVersion,
        key: { benchmark, model, task, network, prompt, run },
      })),
  };
}

type Claimed = Awaited<ReturnType<typeof claim>>["requests"][number];
type JudgeSettings = NonNullable<Awaited<ReturnType<typeof judgeSettings>>>;
const judgeSettings = (id: number) => db().judge.findUnique({ where: { id } });

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

/** Prompt versions never change once saved: each is read once per process. */
const prompts = new Map<number, Promise<string>>();
function promptText(version: number): Promise<string> {
  let text = prompts.get(version);
  if (!text) {
    text = db()
      .judgePrompt.findUniqueOrThrow({ where: { version }, select: { text: true } })
      .then((p) => p.text);
    text.catch(() => prompts.delete(version));
    prompts.set(version, text);
  }
  return text;
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
    const got: { claim?: Awaited<ReturnType<typeof claim>> } = {};
    try {
      const claiming = claim(judge.id, [...byId.keys()]).then((c) => {
        got.claim = c;
        return c;
      });
      let claimed: Awaited<ReturnType<typeof claim>>;
      [claimed, settings] = await Promise.all([claiming, judgeSettings(judge.id)]);
      requests = settings ? claimed.requests : []; // a judge removed took its requests with it
      busy = claimed.busy.map((id) => byId.get(id)!);
      // Answered, cancelled, paused, held by another worker, or stale: nothing to ask.
      const unsettled = new Set([...requests.map((r) => r.id), ...claimed.busy]);
      for (const h of taken) if (!unsettled.has(h.id)) settle(h.job);
    } catch (e) {
      console.error(`${queue}: ${message(e)}`);
      // What was claimed goes back to pending, to be claimed again with the rest of what is held.
      const mine = got.claim?.requests.map((r) => r.id) ?? [];
      if (mine.length)
        await db()
          .judgeRequest.updateMany({ where: { id: { in: mine }, status: "ASKING" }, data: { status: "PENDING" } })
          .catch(() => {});
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
