import "server-only";
// Asking one request: claim it (pending → asking, so no two workers ask the same pair), read the
// trajectory at the version it was planned for, build the request within the judge's budget, ask,
// and store the answer with the vote it makes (the judge's newest answer is its vote, protocol
// §2.5) in one transaction; a failure after the client's retries is stored with its error.
import type PgBoss from "pg-boss";
import { db } from "@/lib/db";
import { transaction } from "@/lib/data/sql";
import { KEY_SELECT } from "@/lib/data/selects";
import { ImportContext } from "@/lib/data/import/context";
import { writeVotes } from "@/lib/data/import/votes";
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

/** Claims a pending request of a running run; null when another worker has it, it is answered, or its run is paused. */
async function claim(id: number) {
  const claimed = await db().judgeRequest.updateMany({
    where: { id, status: "PENDING", run: { status: "RUNNING" } },
    data: { status: "ASKING" },
  });
  if (!claimed.count) return null;
  return db().judgeRequest.findUniqueOrThrow({
    where: { id },
    include: {
      judge: true,
      trajectory: {
        select: { updatedAt: true, externalId: true, ...KEY_SELECT },
      },
    },
  });
}

export async function askRequest(id: number): Promise<void> {
  const r = await claim(id);
  if (!r) return;
  const t = r.trajectory;
  if (t.updatedAt.getTime() !== r.trajectoryVersion.getTime()) {
    await db().judgeRequest.update({ where: { id }, data: { status: "STALE" } });
    await finishIfDone(r.runId);
    return;
  }
  const prompt = await db().judgePrompt.findUniqueOrThrow({ where: { version: r.promptVersion } });
  const request = judgeRequest(prompt.text, await turnsOf(r.trajectoryId), r.judge.contextTokens * CHARS_PER_TOKEN);
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
            trajectory: {
              key: {
                benchmark: t.benchmark.name,
                model: t.model.name,
                task: t.task.key,
                network: t.network,
                prompt: t.prompt,
                run: t.run,
              },
            },
            judge: r.judge.name,
            verdicts: null,
            rationale: null,
            evidence: [],
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
          answer.raw,
          answer.model,
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
    await db().judgeRequest.update({ where: { id }, data: { status: "FAILED", error: message.slice(0, 2000) } });
  }
  await finishIfDone(r.runId);
}

/** A running run with nothing left to ask is done. */
async function finishIfDone(runId: number): Promise<void> {
  await db().$executeRaw`
    UPDATE judge_run SET status = 'DONE' WHERE id = ${runId} AND status = 'RUNNING'
       AND NOT EXISTS (SELECT 1 FROM judge_request WHERE "runId" = ${runId} AND status IN ('PENDING', 'ASKING'))`;
}

/** Works the queues of these judges, each with its concurrency, until stopped. */
export async function workJudges(
  boss: PgBoss,
  judges: ReadonlyArray<{ id: number; concurrency: number }>,
): Promise<void> {
  for (const j of judges) {
    await boss.createQueue(queueName(j.id));
    await boss.work<{ id: number }>(
      queueName(j.id),
      { batchSize: j.concurrency, pollingIntervalSeconds: 0.5 },
      async (jobs) => {
        await Promise.all(jobs.map((job) => askRequest(job.data.id)));
      },
    );
  }
}
