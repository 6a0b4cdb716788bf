import "server-only";
// Judges' answers stored in batches of what arrives during a write; a failing batch is stored one by one.

import { answerNotes } from "@/lib/domain/judge-answer";
import { storableText } from "@/lib/domain/text";
import type { NaturalKey } from "@/lib/formats/interchange";
import type { JudgeAnswer } from "@/lib/judges/client";
import { sharePanelLock } from "./derived";
import { ImportContext } from "./import/context";
import { askedCategories, writeVotes } from "./import/votes";
import { type Sql, transaction } from "./sql";

/** One request asked: its answer with what the request carried, or the error after the last retry. */
export type Outcome = {
  requestId: number;
  runId: number;
  judge: { id: number; name: string; temperature: number | null; maxTokens: number | null };
  trajectoryId: number;
  trajectoryKey: NaturalKey;
  promptVersion: number;
  cut: { truncated: boolean; cutChars: number };
} & ({ answer: JudgeAnswer; cost: number | null } | { error: string });

const DONE_SQL = `
  UPDATE judge_request r SET status = 'DONE', raw = x.raw, model = x.model, "tokensIn" = x.tin, "tokensOut" = x.tout,
         ms = x.ms, cost = x.cost, truncated = x.truncated, "cutChars" = x.cut, temperature = x.temperature,
         "maxTokens" = x.max, "answeredAt" = now(), error = NULL
    FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::float8[], $8::bool[], $9::int[],
                $10::float8[], $11::int[]) AS x(id, raw, model, tin, tout, ms, cost, truncated, cut, temperature, max)
   WHERE r.id = x.id`;

const FAILED_SQL = `
  UPDATE judge_request r SET status = 'FAILED', error = x.error, temperature = x.temperature, "maxTokens" = x.max
    FROM unnest($1::int[], $2::text[], $3::float8[], $4::int[]) AS x(id, error, temperature, max) WHERE r.id = x.id`;

/** A run with nothing left to ask is done. */
const FINISH_SQL = `
  UPDATE judge_run u SET status = 'DONE' WHERE u.id = ANY($1::int[]) AND u.status = 'RUNNING'
     AND NOT EXISTS (SELECT 1 FROM judge_request r WHERE r."runId" = u.id AND r.status IN ('PENDING', 'ASKING'))`;

/** Requests whose trajectory is still at the version they were asked about (re-imported meanwhile: stale). */
const CURRENT_SQL = `
  SELECT r.id FROM judge_request r
    JOIN trajectory t ON t.id = r."trajectoryId" AND t."updatedAt" = r."trajectoryVersion"
   WHERE r.id = ANY($1::int[]) FOR SHARE OF t`;

async function store(sql: Sql, outcomes: readonly Outcome[]): Promise<void> {
  // Before the trajectories are locked below: an adoption waits for this write (ImportContext.begin).
  await sharePanelLock(sql);
  const current = new Set(
    (await sql.query<{ id: number }>(CURRENT_SQL, [outcomes.map((o) => o.requestId)])).map((r) => r.id),
  );
  const stale = outcomes.filter((o) => !current.has(o.requestId)).map((o) => o.requestId);
  if (stale.length) await sql.query(`UPDATE judge_request SET status = 'STALE' WHERE id = ANY($1::int[])`, [stale]);
  const live = outcomes.filter((o) => current.has(o.requestId));
  const answered = live.filter((o): o is Extract<Outcome, { answer: JudgeAnswer }> => "answer" in o);
  const failed = live.filter((o): o is Extract<Outcome, { error: string }> => "error" in o);
  if (answered.length) {
    const asked = await askedCategories(
      sql,
      answered.map((o) => o.promptVersion),
    );
    const ctx = await ImportContext.begin(sql, null, new Date());
    ctx.knowNames(
      "judge",
      answered.map((o) => [o.judge.name, o.judge.id]),
    );
    const errors = await writeVotes(
      ctx,
      answered.map((o) => ({
        line: 0,
        requestId: o.requestId,
        promptVersion: o.promptVersion,
        trajectoryId: o.trajectoryId,
        record: {
          trajectory: { key: o.trajectoryKey },
          judge: o.judge.name,
          verdicts: null,
          ...answerNotes(o.answer.raw, asked.get(o.promptVersion)!),
          raw: o.answer.raw,
          created_at: ctx.now,
        },
      })),
    );
    if (errors.length) throw new Error(errors.map((e) => e.message).join("; "));
    await ctx.refreshTouched();
    const col = <T>(f: (o: (typeof answered)[number]) => T) => answered.map(f);
    await sql.query(DONE_SQL, [
      col((o) => o.requestId),
      col((o) => storableText(o.answer.raw)),
      col((o) => storableText(o.answer.model)),
      col((o) => o.answer.tokensIn),
      col((o) => o.answer.tokensOut),
      col((o) => o.answer.ms),
      col((o) => o.cost),
      col((o) => o.cut.truncated),
      col((o) => o.cut.cutChars),
      col((o) => o.judge.temperature),
      col((o) => o.judge.maxTokens),
    ]);
  }
  if (failed.length)
    await sql.query(FAILED_SQL, [
      failed.map((o) => o.requestId),
      failed.map((o) => storableText(o.error.slice(0, 2000))),
      failed.map((o) => o.judge.temperature),
      failed.map((o) => o.judge.maxTokens),
    ]);
  await sql.query(FINISH_SQL, [[...new Set(outcomes.map((o) => o.runId))]]);
}

/** Stores outcomes as they come, batching those that arrive during a write. */
export class AnswerWriter {
  private waiting: Array<{ outcome: Outcome; stored: () => void }> = [];
  private writing = false;

  /** Resolves once the outcome is stored (as answered, or as failed when its answer could not be). */
  write(outcome: Outcome): Promise<void> {
    return new Promise((stored) => {
      this.waiting.push({ outcome, stored });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length) {
      const batch = this.waiting.splice(0);
      try {
        await transaction((sql) =>
          store(
            sql,
            batch.map((b) => b.outcome),
          ),
        );
      } catch {
        for (const b of batch) await storeAlone(b.outcome);
      }
      for (const b of batch) b.stored();
    }
    this.writing = false;
  }
}

async function storeAlone(outcome: Outcome): Promise<void> {
  try {
    await transaction((sql) => store(sql, [outcome]));
  } catch (e) {
    const error = `the answer could not be stored: ${e instanceof Error ? e.message : String(e)}`;
    await transaction((sql) => store(sql, [{ ...outcome, error }])).catch((e2) =>
      console.error(`judge request ${outcome.requestId}: ${e2 instanceof Error ? e2.message : String(e2)}`),
    );
  }
}
