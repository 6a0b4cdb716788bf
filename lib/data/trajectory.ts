import "server-only";
// One trajectory: header, votes and steps a page at a time, long texts cut in the database.
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db";
import { firstValue, wholeNumber } from "@/lib/domain/params";
import type { SuspectMark } from "@/lib/domain/rules";
import { pageSteps, STEPS_PER_PAGE } from "@/lib/domain/timeline";
import { verdictMap } from "@/lib/domain/verdicts";
import { categoriesGiven } from "./categories";
import { voteVerdicts } from "./derived";
import { readByTheRules, readFailed } from "./rule-matches";

import { stoppedRules } from "./rules";
import { ASKED_SELECT, CONDITION_SELECT, PANEL_SELECT, VERDICT_SELECT } from "./selects";
import { statement } from "./sql";

/** Characters of a message's text shown before it is cut. */
export const TEXT_PREVIEW = 4000;

/** What a timeline page reads of a trajectory: its condition, panel columns, votes and citations. */
const TIMELINE_SELECT = {
  id: true,
  externalId: true,
  ...CONDITION_SELECT,
  patch: true,
  stepCount: true,
  sourceFormat: true,
  ...PANEL_SELECT,
  task: { select: { key: true, repo: true, baseCommit: true, language: true } },
  votes: {
    orderBy: { judge: { name: "asc" } },
    select: {
      ...VERDICT_SELECT,
      promptVersion: true,
      counted: true,
      overall: true,
      parseStatus: true,
      rationale: true,
      raw: true,
      evidence: true,
      judge: { select: { name: true } },
      request: { select: ASKED_SELECT },
    },
  },
  labels: {
    orderBy: { annotator: { handle: "asc" } },
    select: { evidence: true, note: true, annotator: { select: { handle: true } } },
  },
} as const;

export async function getTrajectory(id: number) {
  const t = await db().trajectory.findUnique({ where: { id }, select: TIMELINE_SELECT });
  if (!t) return null;
  const { labels, ...rest } = t;
  const panelCategories = verdictMap(t.panelCategories);
  return {
    ...rest,
    panelCategories,
    /** The judges' columns: the categories the votes or the panel give, in order, named. */
    categories: await categoriesGiven([panelCategories, ...t.votes.map((v) => voteVerdicts(v))]),
    // The panel's votes first, then each judge's answers under other versions.
    votes: [...t.votes].sort(byPanelThenVersion).map((v) => ({
      judge: v.judge.name,
      verdicts: voteVerdicts(v),
      overall: v.overall,
      parseStatus: v.parseStatus,
      rationale: v.rationale,
      raw: v.raw,
      evidence: readEvidence(v.evidence),
      asked: v.request,
      promptVersion: v.promptVersion || null,
      counted: v.counted,
    })),
    citations: [
      ...t.votes
        .filter((v) => v.counted)
        .flatMap((v) => readEvidence(v.evidence).map((e) => ({ ...e, by: v.judge.name, kind: "judge" as const }))),
      ...labels.flatMap((l) =>
        readEvidence(l.evidence).map((e) => ({ ...e, by: l.annotator.handle, kind: "annotator" as const })),
      ),
    ],
  };
}

type Ordered = { counted: boolean; promptVersion: number; judge: { name: string } };
const byPanelThenVersion = (a: Ordered, b: Ordered) =>
  Number(b.counted) - Number(a.counted) ||
  a.judge.name.localeCompare(b.judge.name) ||
  a.promptVersion - b.promptVersion;

export type Citation = { step: number; category: string | null; note: string | null };

/** Cited steps as stored (validated on import; read defensively all the same). */
export function readEvidence(value: unknown): Citation[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((e) =>
    e && typeof e === "object" && Number.isInteger((e as Citation).step)
      ? [
          {
            step: (e as Citation).step,
            category: typeof (e as Citation).category === "string" ? (e as Citation).category : null,
            note: typeof (e as Citation).note === "string" ? (e as Citation).note : null,
          },
        ]
      : [],
  );
}

export type SuspectStep = { step: number; marks: SuspectMark[] };

/** Suspect steps by trajectory, rules and kept hits' versions: a re-import, rule or scan step makes a new key. */
const suspectCache = new LRUCache<string, SuspectStep[]>({ max: 2000 });

/** Steps a rule in force hits, from the kept hits, after the trajectory is read by every rule that has not. */
export async function getSuspectSteps(trajectoryId: number): Promise<SuspectStep[]> {
  await readByTheRules(trajectoryId);
  const [version] = await statement<{ at: Date; rules: string | number; hits: string | number }>(
    `
    SELECT t."updatedAt" AS at, (SELECT n FROM data_version WHERE kind = 'rules') AS rules,
      (SELECT n FROM data_version WHERE kind = 'rule_hits') AS hits
      FROM trajectory t WHERE t.id = $1`,
    [trajectoryId],
  );
  if (!version) return [];
  const key = `${trajectoryId}@${new Date(version.at).getTime()}@${version.rules}@${version.hits}`;
  const cached = suspectCache.get(key);
  if (cached) return cached;
  const rows = await statement<{ step: number; name: string; category: string; why: string }>(MARKS_SQL, [
    trajectoryId,
  ]);
  const byStep = new Map<number, SuspectMark[]>();
  for (const r of rows)
    byStep.set(r.step, [...(byStep.get(r.step) ?? []), { rule: r.name, category: r.category, why: r.why }]);
  const steps = [...byStep.entries()].map(([step, marks]) => ({ step, marks }));
  suspectCache.set(key, steps);
  return steps;
}

// Every kept hit on one trajectory of the rules scanned: enabled, in force, not stopped by their limit.
const MARKS_SQL = `SELECT DISTINCT m.step, l.name, l.category, l.why, l.rank
  FROM rule_match m JOIN rule l ON l.id = m."ruleId"
 WHERE m."trajectoryId" = $1 AND l.id IN (SELECT id FROM rules_scanned()) ORDER BY m.step, l.rank, l.name`;

/** Why marks may be missing: each enabled rule the scan stopped, and whether the rules' reading failed. */
export async function marksLeftOut(trajectoryId: number): Promise<string[]> {
  const stopped = await stoppedRules();
  const said = stopped.map(
    (r) => `the rule ${r.name} marks nothing: ${r.failure} (a new version of it is scanned again)`,
  );
  return readFailed(trajectoryId)
    ? [...said, "some rules have not yet read this trajectory: their marks come when the scan reaches it"]
    : said;
}

/** The same task and model's other trajectories (runs, networks, prompts), but those `withheld` from the viewer. */
export async function getSiblings(trajectoryId: number, withheld: readonly number[] = []) {
  const t = await db().trajectory.findUnique({ where: { id: trajectoryId }, select: { taskId: true, modelId: true } });
  if (!t) return [];
  return db().trajectory.findMany({
    where: { taskId: t.taskId, modelId: t.modelId, id: { notIn: [trajectoryId, ...withheld] } },
    orderBy: [{ network: "desc" }, { prompt: "asc" }, { run: "asc" }],
    select: { id: true, network: true, prompt: true, run: true, resolved: true, panelVerdict: true, stepCount: true },
  });
}

/** The ids of every trajectory of the same task (all models and conditions), but those `withheld`. */
export async function getTaskTrajectoryIds(trajectoryId: number, withheld: readonly number[] = []): Promise<number[]> {
  const t = await db().trajectory.findUnique({ where: { id: trajectoryId }, select: { taskId: true } });
  if (!t) return [];
  const rows = await db().trajectory.findMany({
    where: { taskId: t.taskId, id: { notIn: [...withheld] } },
    orderBy: [{ model: { name: "asc" } }, { network: "desc" }, { prompt: "asc" }, { run: "asc" }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** One text of a message or tool call, whole (for "show all"). */
export async function getFullText(
  trajectoryId: number,
  seq: number,
  part: "content" | "reasoning" | "input",
  call = 0,
): Promise<string | null> {
  if (part === "input") {
    const c = await db().toolCall.findFirst({
      where: { trajectoryId, messageSeq: seq, seq: call },
      select: { input: true },
    });
    return c?.input ?? null;
  }
  const m = await db().message.findFirst({ where: { trajectoryId, seq }, select: { content: true, reasoning: true } });
  return m ? (part === "content" ? m.content : m.reasoning) : null;
}

export type StepMessage = {
  seq: number;
  step: number;
  role: string;
  content: string;
  contentLength: number;
  reasoning: string | null;
  reasoningLength: number;
  toolCallId: string | null;
  exitCode: number | null;
  calls: Array<{ seq: number; name: string; input: string; inputLength: number; callId: string | null }>;
};

/** Messages of steps [from, to], texts cut to TEXT_PREVIEW characters (their full lengths alongside). */
export async function getSteps(trajectoryId: number, from: number, to: number): Promise<StepMessage[]> {
  const [messages, calls] = await Promise.all([
    statement<Omit<StepMessage, "calls">>(
      `
      SELECT seq, step, role::text AS role, left(content, $1) AS content, length(content) AS
        "contentLength",
        left(reasoning, $1) AS reasoning, coalesce(length(reasoning), 0) AS "reasoningLength",
        "toolCallId", "exitCode"
      FROM message WHERE "trajectoryId" = $2 AND step BETWEEN $3 AND $4 ORDER BY step, seq`,
      [TEXT_PREVIEW, trajectoryId, from, to],
    ),
    statement<{
      messageSeq: number;
      seq: number;
      name: string;
      input: string;
      inputLength: number;
      callId: string | null;
    }>(
      `
      SELECT "messageSeq", seq, name, left(input, $1) AS input, length(input) AS "inputLength", "callId"
      FROM tool_call WHERE "trajectoryId" = $2 AND step BETWEEN $3 AND $4 ORDER BY
        "messageSeq", seq`,
      [TEXT_PREVIEW, trajectoryId, from, to],
    ),
  ]);
  const bySeq = new Map<number, StepMessage["calls"]>();
  for (const c of calls)
    bySeq.set(c.messageSeq, [
      ...(bySeq.get(c.messageSeq) ?? []),
      { seq: c.seq, name: c.name, input: c.input, inputLength: c.inputLength, callId: c.callId },
    ]);
  return messages.map((m) => ({ ...m, calls: bySeq.get(m.seq) ?? [] }));
}

/** One page of a queue item's steps: the page asked for (kept in range), its steps and every suspect step. */
export async function stepPage(t: { id: number; stepCount: number }, requestedPage: string | string[] | undefined) {
  const pages = Math.max(1, Math.ceil(t.stepCount / STEPS_PER_PAGE));
  const page = Math.min(
    pages,
    wholeNumber(1)
      .catch(1)
      .parse(firstValue(requestedPage) ?? "1"),
  );
  const { from, to } = pageSteps(page);
  const [messages, suspects] = await Promise.all([getSteps(t.id, from, to), getSuspectSteps(t.id)]);
  return { page, pages, from, to, messages, suspects };
}
export type StepPage = Awaited<ReturnType<typeof stepPage>>;
