import "server-only";
// Votes of an import or a run: a judge's newer vote under a version replaces the older (protocol §2.5).
import { parseJudgeAnswer } from "@/lib/domain/judge-answer";
import { newestPerKey } from "@/lib/domain/panel";
import { storableJson, storableText } from "@/lib/domain/text";
import { overallVerdict } from "@/lib/domain/verdicts";
import type { JudgeVoteRecord } from "@/lib/formats/verdict-records";
import { joinAutomaticPanel } from "../panels";
import type { ImportContext, Located, RecordError } from "./context";
import { locate } from "./references";

const t = (s: string | null | undefined) => (s == null ? null : storableText(s));

/** What a vote says: the same said again is not written, so its time and counts stay. */
const VOTE_CONTENT = [
  "upstream",
  `"localGit"`,
  "memory",
  "other",
  `"parseStatus"`,
  "rationale",
  "raw",
  "evidence",
  `"requestId"`,
];

const VOTE_SQL = `
  INSERT INTO judge_vote ("trajectoryId", "judgeId", upstream, "localGit", memory, other, overall, "parseStatus",
    rationale, raw,
    evidence, "importId", "votedAt", "updatedAt", "requestId", "promptVersion")
  SELECT * FROM unnest($1::int[], $2::int[], $3::text[]::"Verdict"[], $4::text[]::"Verdict"[], $5::text[]::"Verdict"[],
    $6::text[]::"Verdict"[], $7::text[]::"Verdict"[], $8::text[]::"ParseStatus"[], $9::text[], $10::text[],
    $11::text[]::jsonb[],
    $12::int[], $13::text[]::timestamp[], $14::text[]::timestamp[], $15::int[], $16::int[])
  ON CONFLICT ("trajectoryId", "judgeId", "promptVersion") DO UPDATE SET upstream = EXCLUDED.upstream,
    "localGit" = EXCLUDED."localGit",
    memory = EXCLUDED.memory, other = EXCLUDED.other, overall = EXCLUDED.overall,
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
  const rows = newest.map((v) => {
    const parsed = v.record.verdicts
      ? { status: "GIVEN" as const, verdicts: v.record.verdicts }
      : parseJudgeAnswer(v.record.raw ?? "");
    if (parsed.status === "UNPARSEABLE") ctx.counts.unparseable += 1;
    return { ...v, verdicts: parsed.verdicts, status: parsed.status };
  });
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  await ctx.sql.query(VOTE_SQL, [
    col((r) => r.trajectoryId),
    col((r) => r.judgeId),
    col((r) => r.verdicts.UPSTREAM),
    col((r) => r.verdicts.LOCAL_GIT),
    col((r) => r.verdicts.MEMORY),
    col((r) => r.verdicts.OTHER),
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
