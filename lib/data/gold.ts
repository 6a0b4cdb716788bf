import "server-only";
// Gold labels: every version kept, the newest by created_at in force; an import of the same version replaces it.
import { db } from "@/lib/db";
import { storableJson, storableText } from "@/lib/domain/text";
import { overallVerdict, type Verdict } from "@/lib/domain/verdicts";
import type { GoldRecord } from "@/lib/formats/verdict-records";
import { categoryErrors, recordKeys } from "./categories";
import type { ImportContext, Located, RecordError } from "./import/context";
import { locate } from "./import/references";
import { personIds } from "./labels";
import type { Sql } from "./sql";

const GOLD_CONTENT = ["verdicts", "evidence", "note"];
const content = (alias: string) => GOLD_CONTENT.map((c) => `${alias}.${c}`).join(", ");

// A version without its time ($12 false) saying what the adjudicator's newest says is not written again.
const GOLD_SQL = `
  INSERT INTO gold_label ("trajectoryId", "adjudicatorId", verdicts, overall, evidence, note, "importId", "createdAt",
    "madeWith")
  SELECT u."trajectoryId", u."adjudicatorId", u.verdicts, u.overall, u.evidence, u.note, u."importId", u."createdAt",
    u."madeWith"
    FROM unnest($1::int[], $2::text[], $3::text[]::jsonb[], $4::text[]::"Verdict"[], $5::text[]::jsonb[], $6::text[],
      $7::int[], $8::text[]::timestamp[], $9::bool[], $10::text[])
      AS u("trajectoryId", "adjudicatorId", verdicts, overall, evidence, note, "importId", "createdAt", timed,
           "madeWith")
   WHERE u.timed OR ROW(${content("u")}) IS DISTINCT FROM (
     SELECT ROW(${content("g")}) FROM gold_label g WHERE g."trajectoryId" = u."trajectoryId"
        AND g."adjudicatorId" = u."adjudicatorId" ORDER BY g."createdAt" DESC, g.id DESC LIMIT 1)
  ON CONFLICT ("trajectoryId", "adjudicatorId", "createdAt") DO UPDATE SET verdicts = EXCLUDED.verdicts,
    overall = EXCLUDED.overall, evidence = EXCLUDED.evidence, note = EXCLUDED.note, "importId" = EXCLUDED."importId",
    "madeWith" = EXCLUDED."madeWith"
  WHERE (${content("gold_label")}) IS DISTINCT FROM (${content("EXCLUDED")})`;

/** Writes the gold labels of a file; one whose trajectory exists nowhere is an error, and then nothing is written. */
export async function importGold(
  ctx: ImportContext,
  items: ReadonlyArray<Located<GoldRecord>>,
): Promise<RecordError[]> {
  if (!items.length) return [];
  const { found, errors } = await locate(ctx.sql, items);
  if (errors.length) return errors;
  const undefinedKeys = await categoryErrors(
    ctx.sql,
    found.map((f) => ({ line: f.line, keys: recordKeys(f.record) })),
  );
  if (undefinedKeys.length) return undefinedKeys;
  const people = await personIds(
    ctx,
    found.map((f) => storableText(f.record.adjudicator)),
    "REVIEWER",
  );
  // One row per (trajectory, adjudicator, time): the later line of a file wins.
  const rows = [
    ...new Map(
      found.map((f) => {
        const at = f.record.created_at ?? ctx.now;
        const adjudicatorId = people.get(storableText(f.record.adjudicator))!;
        return [`${f.trajectoryId}:${adjudicatorId}:${at.getTime()}`, { ...f, at, adjudicatorId }];
      }),
    ).values(),
  ];
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  await ctx.sql.query(GOLD_SQL, [
    col((r) => r.trajectoryId),
    col((r) => r.adjudicatorId),
    col((r) => JSON.stringify(r.record.verdicts)),
    col((r) => overallVerdict(r.record.verdicts)),
    col((r) => JSON.stringify(storableJson(r.record.evidence))),
    col((r) => (r.record.note == null ? null : storableText(r.record.note))),
    col(() => ctx.importId),
    col((r) => r.at.toISOString()),
    col((r) => r.record.created_at != null),
    col((r) => r.record.made_with ?? ctx.madeWith),
  ]);
  await refreshGold(ctx.sql, [...new Set(rows.map((r) => r.trajectoryId))]);
  ctx.counts.gold += found.length;
  return [];
}

/** Each trajectory's gold label in force (its newest), as a subquery. */
export const GOLD_IN_FORCE = `(SELECT DISTINCT ON ("trajectoryId") * FROM gold_label
  ORDER BY "trajectoryId", "createdAt" DESC, id DESC)`;

/** Sets each trajectory's gold column from the gold label in force (the newest, as GOLD_IN_FORCE). */
export async function refreshGold(sql: Sql, trajectoryIds: readonly number[]): Promise<void> {
  if (!trajectoryIds.length) return;
  await sql.query(
    `UPDATE trajectory t SET "goldOverall" = (SELECT g.overall FROM gold_label g WHERE g."trajectoryId" = t.id
       ORDER BY g."createdAt" DESC, g.id DESC LIMIT 1)
      WHERE t.id = ANY($1::int[])`,
    [trajectoryIds],
  );
}

/** The gold label in force on each trajectory that has one (of these): its overall verdict. */
export async function goldInForce(trajectoryIds?: readonly number[]): Promise<Map<number, Verdict>> {
  const rows = await db().trajectory.findMany({
    where: { goldOverall: { not: null }, ...(trajectoryIds ? { id: { in: [...trajectoryIds] } } : {}) },
    select: { id: true, goldOverall: true },
  });
  return new Map(rows.map((r) => [r.id, r.goldOverall!]));
}
