import "server-only";
// The trajectory columns derived from votes and labels (panel verdicts, split, counts). They are
// recomputed by the pure rules of lib/domain/panel.ts, in the same transaction as the write that
// changed their inputs, so no figure ever reads a stale panel.
import { panelVerdicts } from "@/lib/domain/panel";
import { CATEGORIES, CATEGORY_FIELDS, type CategoryVerdicts, type Verdict } from "@/lib/domain/verdicts";
import type { Sql } from "./sql";

type VoteRow = { trajectoryId: number; upstream: Verdict; localGit: Verdict; memory: Verdict; other: Verdict; parseStatus: string };

export function voteVerdicts(row: Pick<VoteRow, "upstream" | "localGit" | "memory" | "other">): CategoryVerdicts {
  return Object.fromEntries(CATEGORIES.map((c) => [c, row[CATEGORY_FIELDS[c]]])) as CategoryVerdicts;
}

export async function refreshDerived(sql: Sql, trajectoryIds: readonly number[]): Promise<void> {
  if (!trajectoryIds.length) return;
  const ids = [...new Set(trajectoryIds)];
  const votes = await sql.query<VoteRow>(
    `SELECT "trajectoryId", upstream, "localGit", memory, other, "parseStatus" FROM judge_vote WHERE "trajectoryId" = ANY($1::int[])`,
    [ids],
  );
  const byTrajectory = new Map<number, VoteRow[]>(ids.map((id) => [id, []]));
  for (const v of votes) byTrajectory.get(v.trajectoryId)!.push(v);

  const cols = { id: [] as number[], verdict: [] as (Verdict | null)[], up: [] as (Verdict | null)[], git: [] as (Verdict | null)[], mem: [] as (Verdict | null)[], other: [] as (Verdict | null)[], split: [] as (string | null)[], votes: [] as number[], unparseable: [] as number[] };
  for (const [id, rows] of byTrajectory) {
    const panel = panelVerdicts(rows.map(voteVerdicts));
    cols.id.push(id);
    cols.verdict.push(panel?.overall.verdict ?? null);
    cols.up.push(panel?.categories.UPSTREAM.verdict ?? null);
    cols.git.push(panel?.categories.LOCAL_GIT.verdict ?? null);
    cols.mem.push(panel?.categories.MEMORY.verdict ?? null);
    cols.other.push(panel?.categories.OTHER.verdict ?? null);
    cols.split.push(panel?.overall.split ?? null);
    cols.votes.push(rows.length);
    cols.unparseable.push(rows.filter((r) => r.parseStatus === "UNPARSEABLE").length);
  }
  await sql.query(
    `UPDATE trajectory t SET "panelVerdict" = u.v::"Verdict", "panelUpstream" = u.up::"Verdict", "panelLocalGit" = u.git::"Verdict",
       "panelMemory" = u.mem::"Verdict", "panelOther" = u.other::"Verdict", "panelSplit" = u.split::"PanelSplit",
       "voteCount" = u.votes, "unparseableVotes" = u.unparseable,
       "labelCount" = (SELECT count(*)::int FROM label l WHERE l."trajectoryId" = t.id)
     FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[])
       AS u(id, v, up, git, mem, other, split, votes, unparseable)
     WHERE t.id = u.id`,
    [cols.id, cols.verdict, cols.up, cols.git, cols.mem, cols.other, cols.split, cols.votes, cols.unparseable],
  );
}
