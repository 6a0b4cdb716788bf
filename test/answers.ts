// A judge's answers as a judge run stores them: under a prompt version, the judge's other answers kept.
import { expect } from "vitest";
import { ImportContext } from "@/lib/data/import/context";
import { writeVotes } from "@/lib/data/import/votes";
import { type Sql, transaction } from "@/lib/data/sql";
import { db } from "@/lib/db";
import type { Verdict } from "@/lib/domain/verdicts";

type Answers = Record<string, Verdict>;

/** `judge` answers each trajectory (by its external id) under `promptVersion`: UPSTREAM as given. */
export async function answer(judge: string, promptVersion: number, votes: Answers): Promise<void> {
  // Read first: on the embedded database the transaction holds its one connection.
  const ids = await trajectoryIds(Object.keys(votes));
  await transaction(async (sql) => {
    const ctx = await writeAnswers(sql, judge, promptVersion, ids, votes);
    await ctx.refreshTouched();
  });
}

/** The ids of trajectories by external id. */
export const trajectoryIds = (externalIds: string[]) =>
  db().trajectory.findMany({ where: { externalId: { in: externalIds } }, select: { id: true, externalId: true } });

/** Writes the answers in a transaction of the caller's, which refreshes and commits. */
export async function writeAnswers(
  sql: Sql,
  judge: string,
  promptVersion: number,
  ids: Array<{ id: number; externalId: string | null }>,
  votes: Answers,
): Promise<ImportContext> {
  const ctx = await ImportContext.begin(sql, null, new Date());
  const errors = await writeVotes(
    ctx,
    ids.map((tr) => ({
      line: 0,
      promptVersion,
      trajectoryId: tr.id,
      record: {
        trajectory: { id: tr.externalId! },
        judge,
        verdicts: {
          UPSTREAM: votes[tr.externalId!]!,
          LOCAL_GIT: "NOT_ATTEMPTED",
          MEMORY: "NOT_ATTEMPTED",
          OTHER: "NOT_ATTEMPTED",
        },
        confidence: null,
        rationale: null,
        evidence: [],
        raw: null,
        created_at: new Date(),
      },
    })),
  );
  expect(errors).toEqual([]);
  return ctx;
}
