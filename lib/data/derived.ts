import "server-only";
// Panel columns derived from votes and labels, recomputed in the writing transaction: no figure reads a stale panel.
import { newestPerKey, panelCategoryVerdicts, panelVerdicts } from "@/lib/domain/panel";
import { type Verdict, type Verdicts, verdictMap } from "@/lib/domain/verdicts";
import type { Sql } from "./sql";

/** The lock between writers of votes (shared) and a panel's adoption (exclusive). */
export const PANEL_LOCK = 7414;

/** The transactions (each its own Sql) that took the panel lock shared: they hold it to their end. */
const sharingPanelLock = new WeakSet<Sql>();

/** Takes the panel lock shared for the rest of the transaction, once (a judge's store asks three times). */
export async function sharePanelLock(sql: Sql): Promise<void> {
  if (sharingPanelLock.has(sql)) return;
  await sql.query(`SELECT pg_advisory_xact_lock_shared(${PANEL_LOCK})::text`);
  sharingPanelLock.add(sql);
}

type DerivedColumns = {
  id: number[];
  verdict: (Verdict | null)[];
  split: (string | null)[];
  votes: number[];
  unparseable: number[];
  categories: string[];
};

/** A trajectory's count of labels, for the trajectory u.id (the labelling queue counts its own: labels.ts). */
const LABEL_COUNT = `(SELECT count(*)::int FROM label l WHERE l."trajectoryId" = u.id)`;

/** Writes the panel's figures, with each trajectory's count of labels, on the trajectories they changed. */
async function writeDerived(sql: Sql, cols: DerivedColumns): Promise<void> {
  // Rows whose figures stand are not written, so versions move only with changes.
  const names = ["panelVerdict", "panelCategories", "panelSplit", "voteCount", "unparseableVotes", "labelCount"];
  const [columns, current] = [names.map((c) => `"${c}"`).join(", "), names.map((c) => `t."${c}"`).join(", ")];
  const values = 'u.v::"Verdict", u.c, u.split::"PanelSplit", u.votes, u.unparseable, u.labels';
  await sql.query(
    `UPDATE trajectory t SET (${columns}) = (${values})
     FROM (SELECT u.*, ${LABEL_COUNT} AS labels
             FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::jsonb[])
               AS u(id, v, split, votes, unparseable, c)) u
     WHERE t.id = u.id AND (${current}) IS DISTINCT FROM (${values})`,
    [cols.id, cols.verdict, cols.split, cols.votes, cols.unparseable, cols.categories],
  );
}

/** The id of the panel in force (the one adopted last), as a subquery. */
export const PANEL_IN_FORCE = `(SELECT id FROM panel WHERE "adoptedAt" IS NOT NULL
  ORDER BY "adoptedAt" DESC, id DESC LIMIT 1)`;

type VoteRow = {
  id: number;
  trajectoryId: number;
  judgeId: number;
  votedAt: Date;
  verdicts: unknown;
  parseStatus: string;
};

export const voteVerdicts = (row: { verdicts: unknown }): Verdicts => verdictMap(row.verdicts);

export async function refreshDerived(sql: Sql, trajectoryIds: readonly number[]): Promise<void> {
  if (!trajectoryIds.length) return;
  const ids = [...new Set(trajectoryIds)];
  await sharePanelLock(sql);
  // The panel's votes: each member judge's, at the versions the panel names it (its newest among them).
  const votes = await sql.query<VoteRow>(
    `SELECT v.id, v."trajectoryId", v."judgeId", v."votedAt", v.verdicts, v."parseStatus"
       FROM judge_vote v JOIN panel_member m ON m."judgeId" = v."judgeId" AND m."promptVersion" = v."promptVersion"
      WHERE v."trajectoryId" = ANY($1::int[]) AND m."panelId" = ${PANEL_IN_FORCE}`,
    [ids],
  );
  const counted = newestPerKey(
    votes.map((v) => ({ ...v, order: new Date(v.votedAt).getTime() })),
    (v) => `${v.trajectoryId}:${v.judgeId}`,
  );
  const byTrajectory = new Map<number, VoteRow[]>(ids.map((id) => [id, []]));
  for (const v of counted) byTrajectory.get(v.trajectoryId)!.push(v);
  // Which votes count is kept on each vote, so every figure that reads votes reads the panel's.
  await sql.query(
    `UPDATE judge_vote SET counted = (id = ANY($2::int[]))
      WHERE "trajectoryId" = ANY($1::int[]) AND counted IS DISTINCT FROM (id = ANY($2::int[]))`,
    [ids, counted.map((v) => v.id)],
  );

  const cols: DerivedColumns = {
    id: [] as number[],
    verdict: [] as (Verdict | null)[],
    split: [] as (string | null)[],
    votes: [] as number[],
    unparseable: [] as number[],
    categories: [] as string[],
  };
  for (const [id, rows] of byTrajectory) {
    const panel = panelVerdicts(rows.map(voteVerdicts));
    cols.id.push(id);
    cols.verdict.push(panel?.overall.verdict ?? null);
    cols.categories.push(JSON.stringify(panelCategoryVerdicts(panel)));
    cols.split.push(panel?.overall.split ?? null);
    cols.votes.push(rows.length);
    cols.unparseable.push(rows.filter((r) => r.parseStatus === "UNPARSEABLE").length);
  }
  await writeDerived(sql, cols);
}
