import "server-only";
// A judge's queue worked: fetched as slots free, claimed, read, asked, stored in batches; a lease for the dead.
import type PgBoss from "pg-boss";
import { AnswerWriter, type Outcome } from "@/lib/data/judge-answers";
import {
  claimJudgeRequests,
  judgeReadCost,
  judgeSettings,
  judgeTurns,
  promptOf,
  releaseClaims,
} from "@/lib/data/judge-requests";
import { formatBytes } from "@/lib/domain/format";
import { askPriced, EncodedMessages, JudgeRequestFailed } from "@/lib/judges/client";
import { judgeRequest } from "@/lib/judges/prompt";
import { workBudget } from "@/lib/server/memory-budget";
import { ensureQueue } from "@/lib/work/queue";
import { askCohort, cohorts, outcomeBase } from "./cohort";
import { enqueueHeld, type JobData, jobRequests, queueName, REQUESTS_PER_JOB } from "./queue";
import { type SharedReads, type SharedRequest, sharedReads } from "./shared-reads";

const CHARS_PER_TOKEN = 4;

/** A claimed request's trajectory as the judge will read it, within the process's memory budget. */
function requestFor(judge: JudgeSettings, r: Claimed, shared: SharedReads): Promise<SharedRequest> {
  const budgetChars = judge.contextTokens * CHARS_PER_TOKEN;
  const key = { runId: r.runId, promptVersion: r.promptVersion, trajectoryId: r.trajectoryId, budgetChars };
  return shared.request(key, async () => {
    const cost = await judgeReadCost(r.trajectoryId, budgetChars);
    const budget = workBudget();
    // More than the whole budget would run alone and still not fit: refused before a row is read.
    if (cost.bytes > budget.total)
      throw new Error(
        `its ${cost.rows.toLocaleString("en-US")} messages and calls would take ${formatBytes(cost.bytes)} to read, ` +
          `more than the ${formatBytes(budget.total)} this process's judges and imports share (half HEAP_LIMIT_MB)`,
      );
    const reservation = await budget.await(cost.bytes);
    try {
      const turns = await judgeTurns(r.trajectoryId, budgetChars);
      const { text, settings } = await promptOf(r.promptVersion);
      const built = judgeRequest(text, turns, budgetChars, settings);
      return { ...built, messages: new EncodedMessages(built.messages) };
    } finally {
      reservation.release();
    }
  });
}

type Claimed = Awaited<ReturnType<typeof claimJudgeRequests>>["requests"][number];
type JudgeSettings = NonNullable<Awaited<ReturnType<typeof judgeSettings>>>;

/** A trajectory that could not be read for its request: the request fails with the reason. */
class TrajectoryUnread extends Error {
  constructor(reason: string) {
    super(`its trajectory could not be read: ${reason}`);
  }
}

/** Asks one claimed request: its answer, or the error after the client's last retry. */
async function ask(judge: JudgeSettings, r: Claimed, request: SharedRequest): Promise<Outcome> {
  const base = outcomeBase(judge, r, request.cutChars);
  try {
    const { answer, cost } = await askPriced(judge, request.messages);
    return { ...base, answer, cost };
  } catch (e) {
    return { ...base, error: e instanceof JudgeRequestFailed || e instanceof Error ? e.message : String(e) };
  }
}

export type StopWorkers = () => Promise<void>;

/** Works these judges' queues, each keeping its concurrency in flight (pg-boss's own loop leaves slots idle). */
export async function workJudges(
  boss: PgBoss,
  judges: ReadonlyArray<{ id: number; concurrency: number }>,
): Promise<StopWorkers> {
  let stopping = false;
  const writer = new AnswerWriter();
  const shared = sharedReads();
  const loops: Array<{ done: Promise<void> }> = [];
  for (const j of judges) {
    await ensureQueue(boss, queueName(j.id));
    loops.push({ done: new JudgeLoop(boss, j, writer, shared).run(() => stopping) });
  }
  return async () => {
    stopping = true;
    await Promise.all(loops.map((l) => l.done));
    shared.clear();
  };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A job fetched: its requests not yet settled (stored, or found needing no answer). */
type HeldJob = { id: string; open: number };
type Held = { id: number; trajectoryId: number | null; job: HeldJob };

/** One judge's loop: claims held requests as slots free; on stopping what is held goes back to the queue. */
class JudgeLoop {
  private readonly queue: string;
  private inFlight = 0;
  private wake: (() => void) | null = null;
  private held: Held[] = [];
  /** Jobs whose requests are all settled, completed together before the next fetch. */
  private readonly settledJobs: string[] = [];

  constructor(
    private readonly boss: PgBoss,
    private readonly judge: { id: number; concurrency: number },
    private readonly writer: AnswerWriter,
    private readonly shared: SharedReads,
  ) {
    this.queue = queueName(judge.id);
  }

  async run(stopping: () => boolean): Promise<void> {
    while (!stopping()) {
      const free = this.judge.concurrency - this.inFlight;
      if (free <= 0) {
        await this.slotFreed();
        continue;
      }
      try {
        const wanted = Math.ceil((free - this.held.length) / REQUESTS_PER_JOB);
        await Promise.all([this.completeSettled(), wanted > 0 ? this.fetchJobs(wanted) : null]);
      } catch (e) {
        this.logError(e);
      }
      if (!this.held.length) {
        // Idle: look again soon, or as soon as a request in flight ends.
        await Promise.race([sleep(250), this.slotFreed()]);
        continue;
      }
      const someBusy = await this.claimAndAsk(this.held.splice(0, free));
      if (someBusy) await Promise.race([sleep(500), this.slotFreed()]);
    }
    while (this.inFlight > 0) await this.slotFreed();
    // What is held goes back to the queue for whichever worker is next.
    if (this.held.length) {
      await enqueueHeld(this.boss, this.queue, this.held);
      for (const h of this.held) this.settle(h.job);
      this.held = [];
    }
    await this.completeSettled();
  }

  /** Claims and asks; true when some were busy elsewhere. On a failure the claims are released and all held again. */
  private async claimAndAsk(taken: Held[]): Promise<boolean> {
    const byId = new Map(taken.map((h) => [h.id, h]));
    // Kept outside the try: what was claimed before a later step failed is released.
    let claim: Awaited<ReturnType<typeof claimJudgeRequests>> | undefined;
    let settings: JudgeSettings | null;
    let requests: Claimed[];
    let busy: Held[];
    try {
      const claiming = claimJudgeRequests(this.judge.id, [...byId.keys()]).then((c) => (claim = c));
      const [claimed, found] = await Promise.all([claiming, judgeSettings(this.judge.id)]);
      settings = found;
      requests = settings ? claimed.requests : []; // a judge removed took its requests with it
      busy = claimed.busy.map((id) => byId.get(id)!);
      // Answered, cancelled, paused, held by another worker, or stale: nothing to ask.
      const unsettled = new Set([...requests.map((r) => r.id), ...claimed.busy]);
      for (const h of taken) if (!unsettled.has(h.id)) this.settle(h.job);
    } catch (e) {
      this.logError(e);
      // What was claimed goes back to pending, to be claimed again with the rest of what is held.
      await releaseClaims(claim?.requests.map((r) => r.id) ?? []).catch(() => {});
      this.held = [...taken, ...this.held];
      await sleep(1000);
      return false;
    }
    this.held = [...busy, ...this.held];
    const { single, groups } = await cohorts(this.judge.id, requests).catch((e: unknown) => {
      this.logError(e);
      return { single: requests, groups: [] };
    });
    // A request claimed with its cohort belongs to a job fetched later, which finds it answered.
    const jobOf = (r: Claimed) => byId.get(r.id)?.job ?? { id: "", open: Number.POSITIVE_INFINITY };
    for (const g of groups) void this.startCohort(settings!, g, g.map(jobOf));
    // Read in the order planned, as many at once as the process's shared reads allow.
    await Promise.all(single.map((r) => this.start(settings!, r, jobOf(r))));
    return busy.length > 0;
  }

  /** Reads a claimed request's trajectory and asks it in the background; its slot frees when stored. */
  private async start(settings: JudgeSettings, r: Claimed, job: HeldJob): Promise<void> {
    this.inFlight += 1;
    const request = await requestFor(settings, r, this.shared).catch((e: unknown) => new TrajectoryUnread(message(e)));
    void (
      request instanceof TrajectoryUnread
        ? Promise.resolve({ ...outcomeBase(settings, r, 0), error: request.message })
        : ask(settings, r, request)
    )
      .then((outcome) => this.writer.write(outcome))
      .catch((e) => console.error(`judge request ${r.id}: ${message(e)}`))
      .finally(() => {
        this.settle(job);
        this.inFlight -= 1;
        this.wake?.();
      });
  }

  /** A cohort asked as one request in flight; each of its requests settles when stored. */
  private async startCohort(settings: JudgeSettings, group: Claimed[], jobs: HeldJob[]): Promise<void> {
    this.inFlight += 1;
    await askCohort(settings, group, settings.contextTokens * CHARS_PER_TOKEN)
      .then((outcomes) => Promise.all(outcomes.map((o) => this.writer.write(o))))
      .catch((e) => console.error(`judge cohort ${group.map((r) => r.id).join(",")}: ${message(e)}`))
      .finally(() => {
        for (const job of jobs) this.settle(job);
        this.inFlight -= 1;
        this.wake?.();
      });
  }

  private slotFreed(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  private settle(job: HeldJob): void {
    job.open -= 1;
    if (job.open === 0) this.settledJobs.push(job.id);
  }

  private async completeSettled(): Promise<void> {
    const ids = this.settledJobs.splice(0);
    if (ids.length) await this.boss.complete(this.queue, ids).catch((e) => this.logError(e));
  }

  private async fetchJobs(count: number): Promise<void> {
    const jobs = await this.boss.fetch<JobData>(this.queue, { batchSize: count });
    for (const j of jobs) {
      const requests = jobRequests(j.data);
      const job: HeldJob = { id: j.id, open: requests.length };
      if (!requests.length) this.settledJobs.push(j.id);
      for (const r of requests) this.held.push({ ...r, job });
    }
  }

  private logError(e: unknown): void {
    console.error(`${this.queue}: ${message(e)}`);
  }
}
