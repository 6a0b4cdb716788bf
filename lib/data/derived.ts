import "server-only";
// The trajectory columns derived from votes and labels (panel verdicts, split, counts). They are
// recomputed by the pure rules of lib/domain/panel.ts, in the same transaction as the write that
// changed their inputs, so no figure ever reads a stale panel.
import { panelVerdicts } from "@/lib/domain/panel";
import {
  CATEGORIES,
  CATEGORY_FIELDS,
  type Category,
  type CategoryVerdicts,
  PANEL_FIELDS,
  type Verdict,
  verdictsOf,
} from "@/lib/domain/verdicts";
import type { Sql } from "./sql";

type VoteRow = {
  trajectoryId: number;
  upstream: Verdict;
  localGit: Verdict;
  memory: Verdict;
  other: Verdict;
  parseStatus: string;
};

export function voteVerdicts(row: Pick<VoteRow, "upstream" | "localGit" | "memory" | "other">): CategoryVerdicts {
  return verdictsOf(row, CATEGORY_FIELDS);
}

export async function refreshDerived(sql: Sql, trajectoryIds: readonly number[]): Promise<void> {
  if (!trajectoryIds.length) return;
  const ids = [...new Set(trajectoryIds)];
  const votes = await sql.query<VoteRow>(
    `SELECT "trajectoryId", upstream, "localGit", memory, other, "parseStatus" FROM judge_vote WHERE "trajectoryId"
      = ANY($1::int[])`,
    [ids],
  );
  const byTrajectory = new Map<number, VoteRow[]>(ids.map((id) => [id, []]));
  for (const v of votes) byTrajectory.get(v.trajectoryId)!.push(v);

  const cols = {
    id: [] as number[],
    verdict: [] as (Verdict | null)[],
    split: [] as (string | null)[],
    votes: [] as number[],
    unparseable: [] as number[],
    categories: Object.fromEntries(CATEGORIES.map((c) => [c, [] as (Verdict | null)[]])) as Record<
      Category,
      (Verdict | null)[]
    >,
  };
  for (const [id, rows] of byTrajectory) {
    const panel = panelVerdicts(rows.map(voteVerdicts));
    cols.id.push(id);
    cols.verdict.push(panel?.overall.verdict ?? null);
    for (const c of CATEGORIES) cols.categories[c].push(panel?.categories[c].verdict ?? null);
    cols.split.push(panel?.overall.split ?? null);
    cols.votes.push(rows.length);
    cols.unparseable.push(rows.filter((r) => r.parseStatus === "UNPARSEABLE").length);
  }
  // One parameter and one SET a category, its column named by PANEL_FIELDS ($6 onwards).
  const setCategories = CATEGORIES.map((c, i) => `"${PANEL_FIELDS[c]}" = u.c${i}::"Verdict"`).join(", ");
  const categoryParams = CATEGORIES.map((_c, i) => `$${6 + i}::text[]`).join(", ");
  const categoryNames = CATEGORIES.map((_c, i) => `c${i}`).join(", ");
  await sql.query(
    `UPDATE trajectory t SET "panelVerdict" = u.v::"Verdict", ${setCategories}, "panelSplit" = u.split::"PanelSplit",
       "voteCount" = u.votes, "unparseableVotes" = u.unparseable,
       "labelCount" = (SELECT count(*)::int FROM label l WHERE l."trajectoryId" = t.id)
     FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], ${categoryParams})
       AS u(id, v, split, votes, unparseable, ${categoryNames})
     WHERE t.id = u.id`,
    [cols.id, cols.verdict, cols.split, cols.votes, cols.unparseable, ...CATEGORIES.map((c) => cols.categories[c])],
  );
}
