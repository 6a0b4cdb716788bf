// A judge's answers as a judge run stores them: under a prompt version, the judge's other answers kept.
import { expect } from "vitest";
import { ImportContext } from "@/lib/data/import/context";
import { writeVotes } from "@/lib/data/import/votes";
import { transaction } from "@/lib/data/sql";
import { db } from "@/lib/db";
import type { Verdict } from "@/lib/domain/verdicts";

/** `judge` answers each trajectory (by its external id) under `promptVersion`: UPSTREAM as given. */
export async function answer(judge: string, promptVersion: number, votes: Record<string, Verdict>): Promise<void> {
  // Read first: on the embedded database the transaction holds its one connection.
  const ids = await db().trajectory.findMany({ where: { externalId: { in: Object.keys(votes) } } });
  await transaction(async (sql) => {
    const ctx = new ImportContext(sql, null, new Date());
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
          rationale: null,
          evidence: [],
          raw: null,
          created_at: new Date(),
        },
      })),
    );
    expect(errors).toEqual([]);
    await ctx.refreshTouched();
  });
}
