import "server-only";
// What an export reads, page by page by id so any size streams (lib/work/export.ts writes the records).
import { db } from "@/lib/db";
import type { Turn } from "@/lib/domain/steps";
import { ASKED_SELECT, KEY_SELECT, VERDICT_SELECT } from "./selects";

const PAGE = 100;

async function* pages<T extends { id: number }>(fetch: (after: number) => Promise<T[]>): AsyncGenerator<T> {
  let after = 0;
  for (;;) {
    const rows = await fetch(after);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}

type StoredMessage = {
  seq: number;
  role: Turn["role"];
  content: string;
  reasoning: string | null;
  toolCallId: string | null;
  exitCode: number | null;
};
type StoredCall = { messageSeq: number; callId: string | null; name: string; input: string; inputIsJson: boolean };

function turnsOf(messages: readonly StoredMessage[], calls: readonly StoredCall[]): Turn[] {
  const callsBySeq = new Map<number, StoredCall[]>();
  for (const c of calls) callsBySeq.set(c.messageSeq, [...(callsBySeq.get(c.messageSeq) ?? []), c]);
  return messages.map((m) => {
    const turn: Turn = { role: m.role, content: m.content };
    if (m.reasoning !== null) turn.reasoning = m.reasoning;
    const own = callsBySeq.get(m.seq);
    if (own)
      turn.tool_calls = own.map((c) => ({
        ...(c.callId !== null ? { id: c.callId } : {}),
        name: c.name,
        input: c.inputIsJson ? (JSON.parse(c.input) as Record<string, unknown>) : c.input,
      }));
    if (m.toolCallId !== null) turn.tool_call_id = m.toolCallId;
    if (m.exitCode !== null) turn.exit_code = m.exitCode;
    return turn;
  });
}

/** The trajectories (`only`: the one of this id), with their condition and task. */
export const trajectoryPages = (only?: number) =>
  pages((after) =>
    db().trajectory.findMany({
      where: { id: { gt: after, ...(only !== undefined ? { equals: only } : {}) } },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        externalId: true,
        resolved: true,
        patch: true,
        metadata: true,
        ...KEY_SELECT,
        task: { select: { key: true, repo: true, baseCommit: true, language: true } },
      },
    }),
  );

/** A trajectory's stored messages and calls as the interchange format's turns. */
export async function storedTurns(trajectoryId: number): Promise<Turn[]> {
  const [messages, calls] = await Promise.all([
    db().message.findMany({
      where: { trajectoryId: trajectoryId },
      orderBy: { seq: "asc" },
      select: { seq: true, role: true, content: true, reasoning: true, toolCallId: true, exitCode: true },
    }),
    db().toolCall.findMany({
      where: { trajectoryId: trajectoryId },
      orderBy: [{ messageSeq: "asc" }, { seq: "asc" }],
      select: { messageSeq: true, callId: true, name: true, input: true, inputIsJson: true },
    }),
  ]);
  return turnsOf(messages, calls);
}

/** The votes the panel in force counts (`only`: on the trajectory of this id). */
export const countedVotePages = (only?: number) =>
  pages((after) =>
    db().judgeVote.findMany({
      // Counted votes only: the interchange's vote names no prompt version.
      where: { id: { gt: after }, counted: true, ...(only !== undefined ? { trajectoryId: only } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        ...VERDICT_SELECT,
        parseStatus: true,
        confidence: true,
        rationale: true,
        raw: true,
        evidence: true,
        votedAt: true,
        judge: { select: { name: true } },
        trajectory: { select: KEY_SELECT },
        request: { select: ASKED_SELECT },
      },
    }),
  );

/** What a label and a gold label export share: the trajectory, the verdicts, the cited steps, the note. */
const PERSON_VERDICT_SELECT = {
  id: true,
  ...VERDICT_SELECT,
  evidence: true,
  note: true,
  madeWith: true,
  trajectory: { select: KEY_SELECT },
} as const;

/** The labels (`only`: on the trajectory of this id). */
export const labelPages = (only?: number) =>
  pages((after) =>
    db().label.findMany({
      where: { id: { gt: after }, ...(only !== undefined ? { trajectoryId: only } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: { ...PERSON_VERDICT_SELECT, updatedAt: true, annotator: { select: { handle: true } } },
    }),
  );

/** Every version of every gold label (`only`: on the trajectory of this id), oldest first. */
export const goldPages = (only?: number) =>
  pages((after) =>
    db().goldLabel.findMany({
      where: { id: { gt: after }, ...(only !== undefined ? { trajectoryId: only } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: { ...PERSON_VERDICT_SELECT, createdAt: true, adjudicator: { select: { handle: true } } },
    }),
  );
