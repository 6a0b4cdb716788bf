import "server-only";
// Asking one request: claim it (pending → asking, so no two workers ask the same pair), read the
// trajectory at the version it was planned for, build the request within the judge's budget, ask,
// and store the answer with the vote it makes (the judge's newest answer is its vote, protocol
// §2.5) in one transaction; a failure after the client's retries is stored with its error.
import type PgBoss from "pg-boss";
import { db } from "@/lib/db";
import { transaction } from "@/lib/data/sql";
import { KEY_SELECT, naturalKeyOf } from "@/lib/data/selects";
import { ImportContext } from "@/lib/data/import/context";
import { writeVotes } from "@/lib/data/import/votes";
import { answerNotes } from "@/lib/domain/judge-answer";
import { storableText } from "@/lib/domain/text";
import { askJudge, JudgeRequestFailed } from "./client";
import { judgeRequest, type JudgeTurn } from "./prompt";
import { queueName } from "./queue";

/** Characters per token when fitting a trajectory to a judge's budget. */
const CHARS_PER_TOKEN = 4;

async function turnsOf(trajectoryId: number): Promise<JudgeTurn[]> {
  const messages = await db().message.findMany({
    where: { trajectoryId },
    orderBy: [{ step: "asc" }, { seq: "asc" }],
    select: {
      step: true,
      role: true,
      content: true,
      reasoning: true,
      toolCalls: { orderBy: { seq: "asc" }, select: { name: true, input: true } },
    },
  });
  return messages.map((m) => ({
    step: m.step,
    role: m.role.toLowerCase() as JudgeTurn["role"],
    content: m.content,
    reasoning: m.reasoning,
    calls: m.toolCalls,
  }));
}

/** A claim older than this is a worker that died: another takes the request over. */
const LEASE_MINUTES = 10;

/**
 * Claims a request of a running run: pending, or claimed by a worker whose lease ran out. Claims of
 * one judge are serialized (an advisory lock), so its concurrency and its requests-per-minute hold
 * across every worker on every machine. "busy" when the judge is at a limit: ask again later.
 */
async function claim(id: number): Promise<"busy" | null | Awaited<ReturnType<typeof claimed>>> {
  const outcome = await transaction(async (sql) => {
    const [row] = await sql.query<{ judgeId: number }>(`SELECT "judgeId" FROM judge_request WHERE id = $1`, [id]);
    if (!row) return null;
    await sql.query(`SELECT pg_advisory_xact_lock(7411, $1)`, [row.judgeId]);
    const rows = await sql.query<{ id: number; busy: boolean }>(
      `SELECT r.id,
              (SELECT count(*) FROM judge_request x WHERE x."judgeId" = r."judgeId" AND x.status = 'ASKING'
                 AND x."askedAt" > now() - make_interval(mins => ${LEASE_MINUTES})) >= j.concurrency
              OR (j."requestsPerMinute" IS NOT NULL
                  AND (SELECT count(*) FROM judge_request x
                        WHERE x."judgeId" = r."judgeId" AND x."askedAt" > now() - interval '1 minute')
                      >= j."requestsPerMinute")
                AS busy
         FROM judge_request r JOIN judge j ON j.id = r."judgeId" JOIN judge_run u ON u.id = r."runId"
        WHERE r.id = $1 AND u.status = 'RUNNING'
          AND (r.status = 'PENDING'
               OR (r.status = 'ASKING' AND r."askedAt" < now() - make_interval(mins => ${LEASE_MINUTES})))`,
      [id],
    );
    if (!rows[0]) return null;
    if (rows[0].busy) return "busy" as const;
    await sql.query(`UPDATE judge_request SET status = 'ASKING', "askedAt" = now() WHERE id = $1`, [id]);
    return "claimed" as const;
  });
  if (outcome !== "claimed") return outcome;
  return claimed(id);
}

function claimed(id: number) {
  return db().judgeRequest.findUniqueOrThrow({
    where: { id },
    include: { judge: true, trajectory: { select: { updatedAt: true, externalId: true, ...KEY_SELECT } } },
  });
}

/**
 * Asks one request; the run it belongs to when it was asked, null when another worker had it or it
 * is answered, "busy" when its judge is at a limit (the job is put back for later).
 */
export async function askRequest(id: number): Promise<number | null | "busy"> {
  const r = await claim(id);
  if (r === null || r === "busy") return r;
  const t = r.trajectory;
  if (t.updatedAt.getTime() !== r.trajectoryVersion.getTime()) {
    await db().judgeRequest.update({ where: { id }, data: { status: "STALE" } });
    return r.runId;
  }
  const request = judgeRequest(
    await promptText(r.promptVersion),
    await turnsOf(r.trajectoryId),
    r.judge.contextTokens * CHARS_PER_TOKEN,
  );
  try {
    const answer = await askJudge(
      {
        baseUrl: r.judge.baseUrl!,
        model: r.judge.model!,
        apiKeyEnv: r.judge.apiKeyEnv,
        temperature: r.judge.temperature,
        maxTokens: r.judge.maxTokens,
      },
      request.messages,
    );
    const cost =
      r.judge.priceInPerMillion == null
        ? null
        : (answer.tokensIn * r.judge.priceInPerMillion + answer.tokensOut * (r.judge.priceOutPerMillion ?? 0)) / 1e6;
    await transaction(async (sql) => {
      const ctx = new ImportContext(sql, null, new Date());
      const errors = await writeVotes(ctx, [
        {
          line: 0,
          record: {
            trajectory: { key: naturalKeyOf(t) },
            judge: r.judge.name,
            verdicts: null,
            ...answerNotes(answer.raw),
            raw: answer.raw,
            created_at: new Date(),
          },
        },
      ]);
      if (errors.length) throw new Error(errors.map((e) => e.message).join("; "));
      await ctx.refreshTouched();
      await sql.query(
        `UPDATE judge_request SET status = 'DONE', raw = $2, model = $3, "tokensIn" = $4, "tokensOut" = $5, ms = $6,
           cost = $7, truncated = $8, "cutChars" = $9, "answeredAt" = now(), error = NULL WHERE id = $1`,
        [
          id,
          storableText(answer.raw),
          storableText(answer.model),
          answer.tokensIn,
          answer.tokensOut,
          answer.ms,
          cost,
          request.truncated,
          request.cutChars,
        ],
      );
    });
  } catch (e) {
    const message = e instanceof JudgeRequestFailed || e instanceof Error ? e.message : String(e);
    await db().judgeRequest.update({
      where: { id },
      data: { status: "FAILED", error: storableText(message.slice(0, 2000)) },
    });
  }
  return r.runId;
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

/** A running run with nothing left to ask is done. */
async function finishIfDone(runId: number): Promise<void> {
  await db().$executeRaw`
    UPDATE judge_run SET status = 'DONE' WHERE id = ${runId} AND status = 'RUNNING'
       AND NOT EXISTS (SELECT 1 FROM judge_request WHERE "runId" = ${runId} AND status IN ('PENDING', 'ASKING'))`;
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
  const loops = await Promise.all(
    judges.map(async (j) => {
      const queue = queueName(j.id);
      await boss.createQueue(queue);
      return judgeLoop(boss, queue, j.concurrency, () => stopping);
    }),
  );
  return async () => {
    stopping = true;
    await Promise.all(loops.map((l) => l.done));
  };
}

function judgeLoop(boss: PgBoss, queue: string, concurrency: number, stopping: () => boolean) {
  let inFlight = 0;
  let wake: (() => void) | null = null;
  const slotFreed = () => new Promise<void>((resolve) => (wake = resolve));
  const finished = new Set<number>();
  const done = (async () => {
    while (!stopping()) {
      const free = concurrency - inFlight;
      if (free <= 0) {
        await slotFreed();
        continue;
      }
      let jobs: Array<{ id: string; data: { id: number } }> = [];
      try {
        jobs = await boss.fetch<{ id: number }>(queue, { batchSize: free });
      } catch (e) {
        console.error(`judge queue ${queue}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (!jobs.length) {
        // Idle: look again soon, or as soon as a request in flight ends.
        await Promise.race([new Promise((r) => setTimeout(r, 250)), slotFreed()]);
        for (const runId of finished) await finishIfDone(runId);
        finished.clear();
        continue;
      }
      for (const job of jobs) {
        inFlight += 1;
        void askRequest(job.data.id)
          .then(async (runId) => {
            if (runId === "busy") await boss.send(queue, job.data, { startAfter: 2 });
            else if (runId !== null) finished.add(runId);
          })
          .catch((e) => console.error(`judge request ${job.data.id}: ${e instanceof Error ? e.message : String(e)}`))
          .finally(async () => {
            await boss.complete(queue, job.id).catch(() => {});
            inFlight -= 1;
            wake?.();
          });
      }
    }
    while (inFlight > 0) await slotFreed();
    for (const runId of finished) await finishIfDone(runId);
  })();
  return { done };
}
