import "server-only";
// What the judge worker reads and writes of its requests, through the driver (decision 44).
import type { Judge } from "@/generated/prisma/client";
import { db } from "@/lib/db";
import type { NaturalKey } from "@/lib/domain/natural-key";
import { CUT_MARKER_PARTS, type JudgeTurn } from "@/lib/judges/prompt";
import { askedPrompt } from "./judges";
import { statement } from "./sql";

/** A trajectory's turns, texts over `capChars` cut in the middle by the database (outputs cut bare, counted). */
export async function judgeTurns(trajectoryId: number, capChars: number): Promise<JudgeTurn[]> {
  const head = Math.ceil(capChars / 2);
  const params = [trajectoryId, capChars, head, capChars - head, ...CUT_MARKER_PARTS];
  // $1 trajectory, $2 cap, $3/$4 head and tail, $5/$6 marker; a text's bytes come from its header, no decompression.
  const within = (col: string) => `octet_length(${col}) <= $2`;
  // A text cut with its marker (reasoning, messages, call inputs); outputs are cut bare and counted.
  const cut = (col: string) => `CASE WHEN ${within(col)} THEN ${col} WHEN length(${col}) > $2
      THEN left(${col}, $3) || $5 || to_char(length(${col}) - $2, 'FM999,999,999,999') || $6
           || right(${col}, $4) ELSE ${col} END`;
  const messages = `
    SELECT m.seq, m.step, lower(m.role::text) AS role,
           CASE WHEN m.role <> 'tool' THEN ${cut("m.content")} WHEN ${within("m.content")} THEN m.content
                WHEN length(m.content) > $2 THEN left(m.content, $3) || right(m.content, $4)
                ELSE m.content END AS content,
           CASE WHEN m.role <> 'tool' OR ${within("m.content")} THEN 0
                ELSE greatest(length(m.content) - $2, 0)::int END AS "contentCut",
           ${cut("m.reasoning")} AS reasoning
      FROM message m WHERE m."trajectoryId" = $1
     ORDER BY m.step, m.seq`;
  // Calls in a statement of their own: as JSON per message they cost the database and the worker more.
  const calls = `
    SELECT c."messageSeq" AS seq, c.name, ${cut("c.input")} AS input
      FROM tool_call c WHERE c."trajectoryId" = $1
     ORDER BY c."messageSeq", c.seq`;
  const rows = await statement<Omit<JudgeTurn, "calls"> & { seq: number }>(messages, params);
  const callRows = await statement<JudgeTurn["calls"][number] & { seq: number }>(calls, params);
  const bySeq = new Map<number, JudgeTurn["calls"]>();
  for (const { seq, ...call } of callRows) {
    const list = bySeq.get(seq);
    if (list) list.push(call);
    else bySeq.set(seq, [call]);
  }
  return rows.map(({ seq, ...turn }) => ({ ...turn, calls: bySeq.get(seq) ?? [] }));
}

/** A row of a read besides its texts: driver row, turn, request and encoded message (~16 values of 32 bytes). */
const ROW_BYTES = 512;

/** The most a trajectory's read may hold, reserved from the memory budget before a row is read (decision 32). */
export async function judgeReadCost(trajectoryId: number, capChars: number): Promise<{ bytes: number; rows: number }> {
  const [row] = await statement<{ bytes: string | null; rows: number }>(
    `SELECT (SELECT coalesce(sum(least(octet_length(m.content), $2 * 4)
                              + least(coalesce(octet_length(m.reasoning), 0), $2 * 4)), 0)
              FROM message m WHERE m."trajectoryId" = $1)
         + (SELECT coalesce(sum(least(octet_length(c.input), $2 * 4)), 0)
              FROM tool_call c WHERE c."trajectoryId" = $1) AS bytes,
           (SELECT count(*) FROM message m WHERE m."trajectoryId" = $1)::int
         + (SELECT count(*) FROM tool_call c WHERE c."trajectoryId" = $1)::int AS rows`,
    [trajectoryId, capChars],
  );
  const rows = row?.rows ?? 0;
  return { bytes: 3 * Number(row?.bytes ?? 0) + ROW_BYTES * rows, rows };
}

/** A claim older than this is a worker that died: another takes the request over. */
const LEASE_MINUTES = 10;

type ClaimRow = { id: number; outcome: "claimed" | "busy"; runId: number; trajectoryId: number } & {
  promptVersion: number;
  fresh: boolean;
} & NaturalKey;

/** Claims what it can of these requests (claim_judge_requests); a request whose trajectory was re-imported is stale. */
export async function claimJudgeRequests(judgeId: number, ids: readonly number[]) {
  const rows = await statement<ClaimRow>(`SELECT * FROM claim_judge_requests($1::int, $2::int[], $3::int)`, [
    judgeId,
    ids,
    LEASE_MINUTES,
  ]);
  return {
    busy: rows.filter((r) => r.outcome === "busy").map((r) => r.id),
    requests: await claimedOf(rows.filter((r) => r.outcome === "claimed")),
  };
}

/** Claimed rows as the worker asks them; one whose trajectory was re-imported since is stale, not asked. */
async function claimedOf(claimed: readonly ClaimRow[]) {
  const stale = claimed.filter((r) => !r.fresh).map((r) => r.id);
  if (stale.length) await statement(`UPDATE judge_request SET status = 'STALE' WHERE id = ANY($1::int[])`, [stale]);
  return claimed
    .filter((r) => r.fresh)
    .map(({ benchmark, model, task, network, prompt, run, ...r }) => ({
      id: r.id,
      runId: r.runId,
      trajectoryId: r.trajectoryId,
      promptVersion: r.promptVersion,
      key: { benchmark, model, task, network, prompt, run },
    }));
}

/**
 * Claims these pending requests as asked with `leader` (its cohort: one call, so outside the judge's
 * concurrency and rate), and marks `members` already claimed the same; returns those newly claimed.
 */
export async function claimCohort(
  judgeId: number,
  leader: number,
  pending: readonly number[],
  members: readonly number[],
) {
  if (members.length)
    await statement(`UPDATE judge_request SET "cohortOf" = $1 WHERE id = ANY($2::int[]) AND status = 'ASKING'`, [
      leader,
      members,
    ]);
  if (!pending.length) return [];
  const rows = await statement<ClaimRow>(
    `WITH claimed AS (
       UPDATE judge_request r SET status = 'ASKING', "askedAt" = clock_timestamp(), attempts = r.attempts + 1,
              "cohortOf" = $2
        WHERE r.id = ANY($3::int[]) AND r."judgeId" = $1 AND r.status = 'PENDING'
          AND (SELECT u.status FROM judge_run u WHERE u.id = r."runId") = 'RUNNING'
       RETURNING r.id, r."runId", r."trajectoryId", r."promptVersion", r."trajectoryVersion")
     SELECT c.id, 'claimed' AS outcome, c."runId", c."trajectoryId", c."promptVersion",
            t."updatedAt" = c."trajectoryVersion" AS fresh, b.name AS benchmark, m.name AS model, k.key AS task,
            t.network, t.prompt::text AS prompt, t.run
       FROM claimed c JOIN trajectory t ON t.id = c."trajectoryId" JOIN benchmark b ON b.id = t."benchmarkId"
       JOIN agent_model m ON m.id = t."modelId" JOIN task k ON k.id = t."taskId"`,
    [judgeId, leader, pending],
  );
  return claimedOf(rows);
}

/** A judge's settings, as the worker asks with them; null once it was removed. */
export async function judgeSettings(id: number): Promise<Judge | null> {
  const [judge] = await statement<Judge>(`SELECT * FROM judge WHERE id = $1`, [id]);
  return judge ?? null;
}

/** Claims a worker could not go on with go back to pending, to be claimed again. */
export async function releaseClaims(ids: readonly number[]): Promise<void> {
  if (ids.length)
    await db().judgeRequest.updateMany({
      where: { id: { in: [...ids] }, status: "ASKING" },
      data: { status: "PENDING" },
    });
}

type Asked = Awaited<ReturnType<typeof askedPrompt>>;
/** Prompt versions never change once saved: each is read once per process. */
const prompts = new Map<number, Promise<Asked>>();
export function promptOf(version: number): Promise<Asked> {
  let asked = prompts.get(version);
  if (!asked) {
    asked = askedPrompt(version);
    asked.catch(() => prompts.delete(version));
    prompts.set(version, asked);
  }
  return asked;
}

/** Pending requests of the same run and judge about other runs of a trajectory's task (its model's, or every). */
export async function cohortSiblings(
  r: { id: number; runId: number; trajectoryId: number },
  judgeId: number,
  sameModel: boolean,
  limit: number,
): Promise<number[]> {
  const rows = await statement<{ id: number }>(
    `SELECT q.id FROM judge_request q JOIN trajectory t ON t.id = q."trajectoryId"
       JOIN trajectory me ON me.id = $2
      WHERE q."runId" = $1 AND q."judgeId" = $3 AND q.status = 'PENDING' AND q.id <> $4
        AND t."taskId" = me."taskId" AND t."benchmarkId" = me."benchmarkId"
        AND (NOT $5::boolean OR t."modelId" = me."modelId")
      ORDER BY q.id LIMIT $6`,
    [r.runId, r.trajectoryId, judgeId, r.id, sameModel, limit],
  );
  return rows.map((x) => x.id);
}

/** Requests left being asked by a process that died, of runs still running, go back to pending. */
export async function requeueAsking(): Promise<void> {
  await db().judgeRequest.updateMany({
    where: { status: "ASKING", run: { status: "RUNNING" } },
    data: { status: "PENDING" },
  });
}

export async function runsWaiting(): Promise<boolean> {
  const n = await db().judgeRequest.count({
    where: { status: { in: ["PENDING", "ASKING"] }, run: { status: "RUNNING" } },
  });
  return n > 0;
}

/** Each judge's concurrency, by id or by name (those named that exist), or of every judge with an endpoint. */
export function judgeConcurrency(which: { ids: readonly number[] } | { names: readonly string[] } | "with-endpoint") {
  const where =
    which === "with-endpoint"
      ? { baseUrl: { not: null } }
      : "ids" in which
        ? { id: { in: [...which.ids] } }
        : { name: { in: [...which.names] } };
  return db().judge.findMany({ where, select: { id: true, name: true, concurrency: true } });
}
