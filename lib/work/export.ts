import "server-only";
// The database back out as the app's own records (docs/formats.md), whatever format they came in:
// importing an export into an empty database gives back the same trajectories, votes and labels.
// Read page by page, so an export of any size streams.
import { voteVerdicts } from "@/lib/data/derived";
import { ruleVersions } from "@/lib/data/rules";
import { ASKED_SELECT, KEY_SELECT, naturalKeyOf, VERDICT_SELECT } from "@/lib/data/selects";
import { transaction } from "@/lib/data/sql";
import { db } from "@/lib/db";
import { ruleRecord } from "@/lib/domain/rules";
import type { Turn } from "@/lib/domain/steps";
import { evidenceReport } from "./evidence-report";

const PAGE = 100;

/** Pages through a table by id; `fetch` returns the rows after an id. */
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

/** A trajectory's stored messages and tool calls as the interchange format's turns. */
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

/** `only`: one trajectory's (by its id in the database), as the API's trajectory route answers it. */
export async function* exportTrajectories(only?: number): AsyncGenerator<Record<string, unknown>> {
  const trajectories = pages((after) =>
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
  for await (const t of trajectories) {
    const [messages, calls] = await Promise.all([
      db().message.findMany({
        where: { trajectoryId: t.id },
        orderBy: { seq: "asc" },
        select: { seq: true, role: true, content: true, reasoning: true, toolCallId: true, exitCode: true },
      }),
      db().toolCall.findMany({
        where: { trajectoryId: t.id },
        orderBy: [{ messageSeq: "asc" }, { seq: "asc" }],
        select: { messageSeq: true, callId: true, name: true, input: true, inputIsJson: true },
      }),
    ]);
    const turns = turnsOf(messages, calls);
    yield {
      type: "trajectory",
      ...(t.externalId !== null ? { id: t.externalId } : {}),
      benchmark: t.benchmark.name,
      model: t.model.name,
      task: { id: t.task.key, repo: t.task.repo, base_commit: t.task.baseCommit, language: t.task.language },
      network: t.network,
      prompt: t.prompt,
      run: t.run,
      resolved: t.resolved,
      patch: t.patch,
      turns,
      metadata: t.metadata,
    };
  }
}

export async function* exportVotes(only?: number): AsyncGenerator<Record<string, unknown>> {
  const votes = pages((after) =>
    db().judgeVote.findMany({
      // The votes the panel in force counts: a judge's answers under other prompt versions are kept
      // in the app, but a record of the interchange names no version.
      where: { id: { gt: after }, counted: true, ...(only !== undefined ? { trajectoryId: only } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: {
        id: true,
        ...VERDICT_SELECT,
        parseStatus: true,
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
  for await (const v of votes) {
    const a = v.request;
    yield {
      type: "judge_vote",
      trajectory: naturalKeyOf(v.trajectory),
      judge: v.judge.name,
      // Verdicts read from the raw answer (or not readable from it) go out as the raw answer alone,
      // so that importing the export parses (or flags) them again, as the first import did.
      ...(v.parseStatus === "GIVEN" ? { verdicts: voteVerdicts(v) } : {}),
      rationale: v.rationale,
      evidence: v.evidence,
      raw: v.raw ?? (v.parseStatus === "UNPARSEABLE" ? "" : null),
      created_at: v.votedAt.toISOString(),
      // A vote the app asked for says how (an addition to docs/formats.md's record; importing ignores it).
      ...(a
        ? {
            asked: {
              prompt_version: a.promptVersion,
              model: a.model,
              temperature: a.temperature,
              max_tokens: a.maxTokens,
              tokens_in: a.tokensIn,
              tokens_out: a.tokensOut,
              ms: a.ms,
              cost: a.cost,
              truncated: a.truncated,
              cut_chars: a.cutChars,
            },
          }
        : {}),
    };
  }
}

/** What a label and a gold label export share: the trajectory, the verdicts, the cited steps, the note. */
const PERSON_VERDICT_SELECT = {
  id: true,
  ...VERDICT_SELECT,
  evidence: true,
  note: true,
  madeWith: true,
  trajectory: { select: KEY_SELECT },
} as const;

function personVerdict(
  row: {
    evidence: unknown;
    note: string | null;
    madeWith: string | null;
    trajectory: Parameters<typeof naturalKeyOf>[0];
  } & Parameters<typeof voteVerdicts>[0],
  at: Date,
) {
  return {
    trajectory: naturalKeyOf(row.trajectory),
    verdicts: voteVerdicts(row),
    evidence: row.evidence,
    note: row.note,
    created_at: at.toISOString(),
    // Absent for what was made before the app recorded it (its forms then opened on "not attempted").
    ...(row.madeWith ? { made_with: row.madeWith } : {}),
  };
}

export async function* exportLabels(only?: number): AsyncGenerator<Record<string, unknown>> {
  const labels = pages((after) =>
    db().label.findMany({
      where: { id: { gt: after }, ...(only !== undefined ? { trajectoryId: only } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: { ...PERSON_VERDICT_SELECT, updatedAt: true, annotator: { select: { handle: true } } },
    }),
  );
  for await (const l of labels)
    yield { type: "label", annotator: l.annotator.handle, ...personVerdict(l, l.updatedAt) };
}

/** Every version of every gold label (the newest on a trajectory is in force), oldest first. */
export async function* exportGold(only?: number): AsyncGenerator<Record<string, unknown>> {
  const gold = pages((after) =>
    db().goldLabel.findMany({
      where: { id: { gt: after }, ...(only !== undefined ? { trajectoryId: only } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: { ...PERSON_VERDICT_SELECT, createdAt: true, adjudicator: { select: { handle: true } } },
    }),
  );
  for await (const g of gold)
    yield { type: "gold", adjudicator: g.adjudicator.handle, ...personVerdict(g, g.createdAt) };
}

/** Every version of every rule (the newest of each name is in force), by name, oldest first. */
export async function* exportRules(): AsyncGenerator<Record<string, unknown>> {
  for (const r of await transaction((sql) => ruleVersions(sql))) yield ruleRecord(r);
}

async function collect<T>(records: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of records) out.push(r);
  return out;
}

/**
 * One trajectory (by its id in the database) as `export` writes it, with the votes the panel counts,
 * the labels, every gold label version and its evidence from the task record (null: none); null
 * when there is no such trajectory.
 */
export async function trajectoryWithVerdicts(id: number): Promise<Record<string, unknown> | null> {
  const [trajectory] = await collect(exportTrajectories(id));
  if (!trajectory) return null;
  const [votes, labels, gold, evidence] = await Promise.all([
    collect(exportVotes(id)),
    collect(exportLabels(id)),
    collect(exportGold(id)),
    evidenceReport(id),
  ]);
  const found = evidence[0];
  return {
    trajectory,
    votes,
    labels,
    gold,
    evidence: found ? { patch_similarity: found.patch_similarity, items: found.items } : null,
  };
}

export const EXPORTS = {
  trajectories: [exportTrajectories],
  votes: [exportVotes],
  labels: [exportLabels],
  gold: [exportGold],
  rules: [exportRules],
  all: [exportTrajectories, exportVotes, exportLabels, exportGold, exportRules],
} as const;
