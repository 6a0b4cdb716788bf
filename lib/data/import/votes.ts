import "server-only";
// Votes of an import or a run: a judge's newer vote under a version replaces the older (protocol §2.5).
import { parseJudgeAnswer } from "@/lib/domain/judge-answer";
import { newestPerKey } from "@/lib/domain/panel";
import { storableJson, storableText } from "@/lib/domain/text";
import { overallVerdict } from "@/lib/domain/verdicts";
import type { JudgeVoteRecord } from "@/lib/formats/verdict-records";
import { builtInKeys, categoryErrors, recordKeys } from "../categories";
import { joinAutomaticPanel } from "../panels";
import type { Sql } from "../sql";
import type { ImportContext, Located, RecordError } from "./context";
import { locate } from "./references";

const t = (s: string | null | undefined) => (s == null ? null : storableText(s));

/** What a vote says: the same said again is not written, so its time and counts stay. */
const VOTE_CONTENT = ["verdicts", "confidence", `"parseStatus"`, "rationale", "raw", "evidence", `"requestId"`];

const VOTE_SQL = `
  INSERT INTO judge_vote ("trajectoryId", "judgeId", verdicts, overall, "parseStatus", rationale, raw, evidence,
    "importId", "votedAt", "updatedAt", "requestId", "promptVersion", confidence)
  SELECT * FROM unnest($1::int[], $2::int[], $3::text[]::jsonb[], $4::text[]::"Verdict"[], $5::text[]::"ParseStatus"[],
    $6::text[], $7::text[], $8::text[]::jsonb[], $9::int[], $10::text[]::timestamp[], $11::text[]::timestamp[],
    $12::int[], $13::int[], $14::text[]::jsonb[])
  ON CONFLICT ("trajectoryId", "judgeId", "promptVersion") DO UPDATE SET verdicts = EXCLUDED.verdicts,
    confidence = EXCLUDED.confidence,
    overall = EXCLUDED.overall,
    "parseStatus" = EXCLUDED."parseStatus",
    rationale = EXCLUDED.rationale, raw = EXCLUDED.raw, evidence = EXCLUDED.evidence, "importId" = EXCLUDED."importId",
    "votedAt" = EXCLUDED."votedAt", "updatedAt" = EXCLUDED."updatedAt", "requestId" = EXCLUDED."requestId"
  WHERE EXCLUDED."votedAt" >= judge_vote."votedAt"
    AND (${VOTE_CONTENT.map((c) => `judge_vote.${c}`).join(", ")})
        IS DISTINCT FROM (${VOTE_CONTENT.map((c) => `EXCLUDED.${c}`).join(", ")})`;

/** A vote to write: a file's record, or the app's answer (with its request; `trajectoryId` when known to exist). */
export type VoteItem = Located<JudgeVoteRecord> & { requestId?: number; promptVersion?: number; trajectoryId?: number };

/** Writes the votes; one whose trajectory exists nowhere is an error, and then nothing is written. */
export async function writeVotes(ctx: ImportContext, items: readonly VoteItem[]): Promise<RecordError[]> {
  if (!items.length) return [];
  const known = items.every((i) => i.trajectoryId !== undefined);
  const { found, errors } = known
    ? { found: items as Array<VoteItem & { trajectoryId: number }>, errors: [] }
    : await locate(ctx.sql, items);
  if (errors.length) return errors;
  const undefinedKeys = await categoryErrors(
    ctx.sql,
    found.map((f) => ({ line: f.line, keys: recordKeys(f.record) })),
  );
  if (undefinedKeys.length) return undefinedKeys;
  const asked = await askedCategories(
    ctx.sql,
    found.map((f) => f.promptVersion ?? 0),
  );
  const judges = await ctx.nameIds(
    "judge",
    found.map((f) => storableText(f.record.judge)),
  );
  // One row per (trajectory, judge, version): the newest, and on a tie the later line.
  const newest = newestPerKey(
    found.map((f) => {
      const votedAt = f.record.created_at ?? ctx.now;
      return { ...f, judgeId: judges.get(storableText(f.record.judge))!, votedAt, order: votedAt.getTime() };
    }),
    (v) => `${v.trajectoryId}:${v.judgeId}:${v.promptVersion ?? 0}`,
  );
  const rows = newest.map((v) => readVote(ctx, v, asked.get(v.promptVersion ?? 0)!));
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  await ctx.sql.query(VOTE_SQL, [
    col((r) => r.trajectoryId),
    col((r) => r.judgeId),
    col((r) => JSON.stringify(r.verdicts)),
    col((r) => overallVerdict(r.verdicts)),
    col((r) => r.status),
    col((r) => t(r.record.rationale)),
    col((r) => t(r.record.raw)),
    col((r) => JSON.stringify(storableJson(r.record.evidence))),
    col(() => ctx.importId),
    col((r) => r.votedAt.toISOString()),
    col(() => ctx.now.toISOString()),
    col((r) => r.requestId ?? null),
    col((r) => r.promptVersion ?? 0),
    col((r) => (r.confidence ? JSON.stringify(r.confidence) : null)),
  ]);
  // Imported judges join the panel while no researcher has set one.
  await joinAutomaticPanel(
    ctx.sql,
    rows.filter((r) => (r.promptVersion ?? 0) === 0).map((r) => r.judgeId),
  );
  for (const r of rows) ctx.touched.add(r.trajectoryId);
  ctx.counts.votes += found.length;
  return [];
}

/** A vote's verdicts (given, or read from its raw answer in the categories asked) and its confidence in them. */
function readVote<V extends VoteItem>(ctx: ImportContext, v: V, asked: readonly string[]) {
  const parsed = v.record.verdicts
    ? { status: "GIVEN" as const, verdicts: v.record.verdicts }
    : parseJudgeAnswer(v.record.raw ?? "", asked);
  if (parsed.status === "UNPARSEABLE") ctx.counts.unparseable += 1;
  // Confidence counts only in categories the vote gives (an unparseable answer's are not the judge's).
  const given = Object.entries(v.record.confidence ?? {}).filter(
    ([k]) => parsed.status !== "UNPARSEABLE" && k in parsed.verdicts,
  );
  const confidence = given.length ? Object.fromEntries(given) : null;
  return { ...v, verdicts: parsed.verdicts, status: parsed.status, confidence };
}

/** The categories each prompt version asks; an imported vote's (version 0) are the built-in ones. */
export async function askedCategories(
  sql: Pick<Sql, "query">,
  versions: readonly number[],
): Promise<Map<number, string[]>> {
  const rows = await sql.query<{ version: number; categories: string[] }>(
    `SELECT version, categories FROM judge_prompt WHERE version = ANY($1::int[])`,
    [[...new Set(versions)]],
  );
  const builtIn = await builtInKeys(sql);
  return new Map([
    [0, builtIn],
    ...rows.map((r): [number, string[]] => [r.version, r.categories.length ? r.categories : builtIn]),
  ]);
}
