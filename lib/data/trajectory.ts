import "server-only";
// One trajectory: its header, its judges' votes, and its steps a page at a time, with long texts
// cut in the database (a tool output may be tens of MB; the page never loads it whole).
import { db } from "@/lib/db";
import { voteVerdicts } from "./derived";

/** Characters of a message's text shown before it is cut. */
export const TEXT_PREVIEW = 4000;
export const STEPS_PER_PAGE = 50;

export async function getTrajectory(id: number) {
  const t = await db().trajectory.findUnique({
    where: { id },
    select: {
      id: true, externalId: true, network: true, prompt: true, run: true, resolved: true, patch: true, stepCount: true, sourceFormat: true,
      panelVerdict: true, panelSplit: true, panelUpstream: true, panelLocalGit: true, panelMemory: true, panelOther: true,
      benchmark: { select: { name: true } }, model: { select: { name: true } }, task: { select: { key: true, repo: true, baseCommit: true, language: true } },
      votes: { orderBy: { judge: { name: "asc" } }, select: { upstream: true, localGit: true, memory: true, other: true, overall: true, parseStatus: true, rationale: true, raw: true, judge: { select: { name: true } } } },
    },
  });
  if (!t) return null;
  return { ...t, votes: t.votes.map((v) => ({ judge: v.judge.name, verdicts: voteVerdicts(v), overall: v.overall, parseStatus: v.parseStatus, rationale: v.rationale, raw: v.raw })) };
}

export type StepMessage = {
  seq: number; step: number; role: string; content: string; contentLength: number; reasoning: string | null; reasoningLength: number;
  toolCallId: string | null; exitCode: number | null; calls: Array<{ name: string; input: string; inputLength: number; callId: string | null }>;
};

/** Messages of steps [from, to], texts cut to TEXT_PREVIEW characters (their full lengths alongside). */
export async function getSteps(trajectoryId: number, from: number, to: number): Promise<StepMessage[]> {
  const prisma = db();
  const [messages, calls] = await Promise.all([
    prisma.$queryRaw<Array<Omit<StepMessage, "calls">>>`
      SELECT seq, step, role::text AS role, left(content, ${TEXT_PREVIEW}) AS content, length(content) AS "contentLength",
        left(reasoning, ${TEXT_PREVIEW}) AS reasoning, coalesce(length(reasoning), 0) AS "reasoningLength", "toolCallId", "exitCode"
      FROM message WHERE "trajectoryId" = ${trajectoryId} AND step BETWEEN ${from} AND ${to} ORDER BY step, seq`,
    prisma.$queryRaw<Array<{ messageSeq: number; name: string; input: string; inputLength: number; callId: string | null }>>`
      SELECT "messageSeq", name, left(input, ${TEXT_PREVIEW}) AS input, length(input) AS "inputLength", "callId"
      FROM tool_call WHERE "trajectoryId" = ${trajectoryId} AND step BETWEEN ${from} AND ${to} ORDER BY "messageSeq", seq`,
  ]);
  const bySeq = new Map<number, StepMessage["calls"]>();
  for (const c of calls) bySeq.set(c.messageSeq, [...(bySeq.get(c.messageSeq) ?? []), { name: c.name, input: c.input, inputLength: c.inputLength, callId: c.callId }]);
  return messages.map((m) => ({ ...m, calls: bySeq.get(m.seq) ?? [] }));
}
