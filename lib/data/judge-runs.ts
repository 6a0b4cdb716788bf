import "server-only";
// Judge runs: the list's trajectories asked of each judge once per trajectory version and prompt version.
import { db } from "@/lib/db";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { AppError } from "@/lib/errors";
import { currentPrompt } from "./judges";
import { statement, transaction } from "./sql";
import { trajectoryWhere } from "./trajectories";

/** A request to queue, with its trajectory (read while the request is claimed). */
export type QueuedRequest = { id: number; judgeId: number; trajectoryId: number };

export type RunPlan = {
  runId: number;
  promptVersion: number;
  /** Requests this run will make (pairs not answered yet), and pairs answered before. */
  requests: QueuedRequest[];
  answeredBefore: number;
  estimate: { tokensIn: number; cost: number | null };
};

async function runnableJudges(judgeNames: readonly string[]) {
  if (!judgeNames.length) throw new AppError("BAD_INPUT", "choose at least one judge", "judges");
  const judges = await db().judge.findMany({
    where: { name: { in: [...judgeNames] } },
    select: {
      id: true,
      name: true,
      baseUrl: true,
      contextTokens: true,
      priceInPerMillion: true,
      priceOutPerMillion: true,
    },
  });
  const missing = judgeNames.filter((n) => !judges.some((j) => j.name === n));
  if (missing.length) throw new AppError("BAD_INPUT", `no judge named ${missing.join(", ")} (judge add defines one)`);
  const unrunnable = judges.filter((j) => !j.baseUrl).map((j) => j.name);
  if (unrunnable.length)
    throw new AppError("BAD_INPUT", `${unrunnable.join(", ")}: known from imported votes only, with no endpoint`);
  return judges;
}

type RunnableJudge = Awaited<ReturnType<typeof runnableJudges>>[number];
type Pair = { judgeId: number; trajectoryId: number };

/** What a run would ask before it is started: requests, pairs answered before, an estimate. */
export async function previewRun(judgeNames: readonly string[], filter: TrajectoryFilter) {
  const judges = await runnableJudges(judgeNames);
  const prompt = await currentPrompt();
  const trajectories = await db().trajectory.findMany({
    where: trajectoryWhere(filter),
    select: { id: true, updatedAt: true },
  });
  // Answered pairs: as planRun counts them, by trajectory version, judge and prompt version.
  const answered = await db().judgeRequest.findMany({
    where: {
      status: "DONE",
      promptVersion: prompt.version,
      judgeId: { in: judges.map((j) => j.id) },
      // The filter itself, not the ids: a list of 150,000 would pass PostgreSQL's 65,535 parameters.
      trajectory: trajectoryWhere(filter),
    },
    select: { judgeId: true, trajectoryId: true, trajectoryVersion: true },
  });
  const done = new Set(answered.map((a) => `${a.judgeId}:${a.trajectoryId}:${a.trajectoryVersion.getTime()}`));
  const pairs = judges.flatMap((j) =>
    trajectories
      .filter((t) => !done.has(`${j.id}:${t.id}:${t.updatedAt.getTime()}`))
      .map((t) => ({ judgeId: j.id, trajectoryId: t.id })),
  );
  return {
    promptVersion: prompt.version,
    requests: pairs.length,
    answeredBefore: trajectories.length * judges.length - pairs.length,
    ...(await estimate(judges, pairs)),
  };
}

/** Creates a run and its requests; refuses judges without an endpoint. */
export async function planRun(judgeNames: readonly string[], filter: TrajectoryFilter, by: string): Promise<RunPlan> {
  const judges = await runnableJudges(judgeNames);
  const prompt = await currentPrompt();
  const trajectories = await db().trajectory.findMany({
    where: trajectoryWhere(filter),
    select: { id: true, updatedAt: true },
  });
  const run = await db().judgeRun.create({
    data: { promptVersion: prompt.version, judges: [...judgeNames], filter: filter as object, createdBy: by },
    select: { id: true },
  });
  const requests: RunPlan["requests"] = [];
  const pairs: Pair[] = [];
  let answeredBefore = 0;
  await transaction(async (sql) => {
    for (const judge of judges) {
      for (let i = 0; i < trajectories.length; i += 5000) {
        const chunk = trajectories.slice(i, i + 5000);
        const rows = await sql.query<{ id: number; status: string; trajectoryId: number }>(
          `INSERT INTO judge_request ("runId", "trajectoryId", "trajectoryVersion", "judgeId", "promptVersion")
           SELECT $1, t, v, $4, $5 FROM unnest($2::int[], $3::timestamp[]) AS x(t, v)
           ON CONFLICT ("trajectoryId", "trajectoryVersion", "judgeId", "promptVersion") DO UPDATE
             SET "runId" = CASE WHEN judge_request.status = 'DONE' THEN judge_request."runId" ELSE EXCLUDED."runId" END,
                 status = CASE WHEN judge_request.status = 'DONE' THEN 'DONE' ELSE 'PENDING' END,
                 error = CASE WHEN judge_request.status = 'DONE' THEN judge_request.error ELSE NULL END,
                 attempts = CASE WHEN judge_request.status = 'DONE' THEN judge_request.attempts ELSE 0 END
           RETURNING id, status, "trajectoryId"`,
          [run.id, chunk.map((t) => t.id), chunk.map((t) => t.updatedAt.toISOString()), judge.id, prompt.version],
        );
        for (const r of rows)
          if (r.status === "DONE") answeredBefore += 1;
          else {
            requests.push({ id: r.id, judgeId: judge.id, trajectoryId: r.trajectoryId });
            pairs.push({ judgeId: judge.id, trajectoryId: r.trajectoryId });
          }
      }
    }
  });
  return {
    runId: run.id,
    promptVersion: prompt.version,
    requests,
    answeredBefore,
    estimate: await estimate(judges, pairs),
  };
}

/** Output tokens assumed per answer, for the cost estimate (a verdict object with a rationale). */
const ANSWER_TOKENS = 400;

/** Input tokens and cost of the pairs to ask, from stored sizes (counting characters took ten times as long). */
async function estimate(judges: readonly RunnableJudge[], pairs: readonly Pair[]): Promise<RunPlan["estimate"]> {
  if (!pairs.length) return { tokensIn: 0, cost: 0 };
  const ids = [...new Set(pairs.map((p) => p.trajectoryId))];
  const rows = await statement<{ id: number; bytes: number }>(
    `
    SELECT "trajectoryId" AS id, sum(octet_length(content) + coalesce(octet_length(reasoning), 0))::float8 AS bytes
      FROM message WHERE "trajectoryId" = ANY($1::int[]) GROUP BY "trajectoryId"`,
    [ids],
  );
  const bytes = new Map(rows.map((r) => [r.id, r.bytes]));
  let tokensIn = 0;
  let cost: number | null = 0;
  for (const p of pairs) {
    const j = judges.find((x) => x.id === p.judgeId)!;
    const tokens = Math.min((bytes.get(p.trajectoryId) ?? 0) / 4, j.contextTokens);
    tokensIn += tokens;
    cost =
      cost === null || j.priceInPerMillion == null
        ? null
        : cost + (tokens * j.priceInPerMillion + ANSWER_TOKENS * (j.priceOutPerMillion ?? 0)) / 1e6;
  }
  return { tokensIn: Math.round(tokensIn), cost };
}

export type RunProgress = {
  /** Answered requests whose trajectory was cut to fit the judge's budget. */
  truncated: number;
  pending: number;
  asking: number;
  done: number;
  failed: number;
  stale: number;
  tokensIn: number;
  tokensOut: number;
  /** Null while no answer has a cost (the judges have no prices). */
  cost: number | null;
  errors: string[];
};

const NO_PROGRESS: RunProgress = {
  truncated: 0,
  pending: 0,
  asking: 0,
  done: 0,
  failed: 0,
  stale: 0,
  tokensIn: 0,
  tokensOut: 0,
  cost: null,
  errors: [],
};

/** The progress of these runs in two queries, whatever their number (the Judges page refreshes it). */
async function progressOf(runIds: readonly number[]): Promise<Map<number, RunProgress>> {
  if (!runIds.length) return new Map();
  const rows = await statement<Omit<RunProgress, "errors"> & { runId: number }>(
    `
    SELECT "runId",
           count(*) FILTER (WHERE truncated)::int AS truncated,
           count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
           count(*) FILTER (WHERE status = 'ASKING')::int AS asking,
           count(*) FILTER (WHERE status = 'DONE')::int AS done,
           count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
           count(*) FILTER (WHERE status = 'STALE')::int AS stale,
           coalesce(sum("tokensIn"), 0)::int AS "tokensIn", coalesce(sum("tokensOut"), 0)::int AS "tokensOut",
           sum(cost)::float8 AS cost
      FROM judge_request WHERE "runId" = ANY($1::int[]) GROUP BY "runId"`,
    [runIds],
  );
  const errors = await statement<{ runId: number; error: string | null }>(
    `
    SELECT "runId", error FROM (
      SELECT "runId", error, row_number() OVER (PARTITION BY "runId" ORDER BY id) AS n
        FROM judge_request WHERE "runId" = ANY($1::int[]) AND status = 'FAILED') e
     WHERE n <= 20 ORDER BY "runId", n`,
    [runIds],
  );
  const progress = new Map(runIds.map((id) => [id, { ...NO_PROGRESS, errors: [] as string[] }]));
  for (const { runId, ...row } of rows) Object.assign(progress.get(runId)!, row);
  for (const e of errors) progress.get(e.runId)!.errors.push(e.error ?? "");
  return progress;
}

export async function runProgress(runId: number): Promise<RunProgress> {
  return (await progressOf([runId])).get(runId)!;
}

/** Pauses a run: its queued jobs pass without asking; its rows wait as pending. */
export async function pauseRun(runId: number): Promise<void> {
  await db().judgeRun.updateMany({ where: { id: runId, status: "RUNNING" }, data: { status: "PAUSED" } });
}

/** Resumes a paused run: its pending rows, to be queued again. */
export async function resumeRun(runId: number): Promise<QueuedRequest[]> {
  const resumed = await db().judgeRun.updateMany({
    where: { id: runId, status: "PAUSED" },
    data: { status: "RUNNING" },
  });
  if (!resumed.count) return [];
  return pendingRequests(runId);
}

/** Cancels a run (what it has not asked is left); says whether this call cancelled it, null for no such run. */
export async function cancelRun(runId: number): Promise<{ cancelled: boolean; status: string } | null> {
  return transaction(async (sql) => {
    const changed = await sql.query(
      `UPDATE judge_run SET status = 'CANCELLED' WHERE id = $1 AND status IN ('RUNNING', 'PAUSED') RETURNING id`,
      [runId],
    );
    await sql.query(`UPDATE judge_request SET status = 'CANCELLED' WHERE "runId" = $1 AND status = 'PENDING'`, [runId]);
    const [run] = await sql.query<{ status: string }>(`SELECT status FROM judge_run WHERE id = $1`, [runId]);
    return run ? { cancelled: changed.length > 0, status: run.status } : null;
  });
}

/** A run followed to its end is done, unless it was cancelled or paused meanwhile: its status after. */
export async function finishRun(runId: number): Promise<string> {
  await db().judgeRun.updateMany({ where: { id: runId, status: "RUNNING" }, data: { status: "DONE" } });
  return (await db().judgeRun.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).status;
}

/** The pending rows of a run (to queue after a resume, or after the app restarts). */
export async function pendingRequests(runId?: number): Promise<QueuedRequest[]> {
  return db().judgeRequest.findMany({
    where: { status: { in: ["PENDING", "ASKING"] }, run: { status: "RUNNING", ...(runId ? { id: runId } : {}) } },
    select: { id: true, judgeId: true, trajectoryId: true },
  });
}

export type RunRow = {
  id: number;
  judges: string[];
  promptVersion: number;
  status: string;
  createdAt: Date;
  createdBy: string | null;
} & RunProgress;

export async function listRuns(limit = 20): Promise<RunRow[]> {
  const runs = await db().judgeRun.findMany({ orderBy: { id: "desc" }, take: limit });
  const progress = await progressOf(runs.map((r) => r.id));
  return runs.map((r) => ({
    id: r.id,
    judges: r.judges,
    promptVersion: r.promptVersion,
    status: r.status,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    ...progress.get(r.id)!,
  }));
}
