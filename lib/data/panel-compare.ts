import "server-only";
// Two saved panels side by side: every trajectory and the votes either panel counts, read in one snapshot.
import type { MonitorRow } from "@/lib/domain/monitor-report";
import type { ComparedTrajectory, PanelComparison, StoredVote } from "@/lib/domain/panel-compare";
import type { Verdict } from "@/lib/domain/verdicts";
import { AppError } from "@/lib/errors";
import { offThread } from "@/lib/server/compute-thread";
import { voteVerdicts } from "./derived";
import { panelMonitors } from "./monitors";
import { listPanels, type PanelView } from "./panels";
import { type Sql, transaction } from "./sql";

export type PanelComparisonView = {
  candidate: PanelView;
  /** The panel it is set beside: the one in force unless another is named. */
  against: PanelView;
  comparison: PanelComparison;
  /** Each trajectory's condition, task and run, for the changed ones' links. */
  trajectories: Map<number, ComparedTrajectory>;
  /** Both panels as monitors against gold: the panel beside first, in each category. */
  monitors: MonitorRow[];
};

const TRAJECTORIES_SQL = `
  SELECT t.id, b.name AS benchmark, m.name AS model, t.network, t.prompt::text AS prompt, k.key AS task, t.run,
    t.resolved, t."goldOverall"::text AS gold
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
    JOIN task k ON k.id = t."taskId"
  ORDER BY t.id`;

type VoteRow = {
  trajectoryId: number;
  judge: string;
  promptVersion: number;
  verdicts: unknown;
  votedAt: Date;
  tokens: number | null;
  cost: number | null;
};

// The votes of the judges either panel names, at the versions it names; what asking each took.
const VOTES_SQL = `
  SELECT v."trajectoryId", j.name AS judge, v."promptVersion", v.verdicts,
    v."votedAt", r."tokensIn" + r."tokensOut" AS tokens, r.cost
  FROM judge_vote v JOIN judge j ON j.id = v."judgeId" LEFT JOIN judge_request r ON r.id = v."requestId"
  WHERE EXISTS (SELECT 1 FROM panel_member pm WHERE pm."panelId" = ANY($1::int[])
                  AND pm."judgeId" = v."judgeId" AND pm."promptVersion" = v."promptVersion")
  ORDER BY v.id`;

/** The panel named beside `withName` (default: the panel in force); an unknown name is a 400. */
export async function comparePanelsNamed(name: string, withName?: string): Promise<PanelComparisonView> {
  const { candidate, against, trajectories, votes } = await transaction(async (sql) => {
    await sql.query(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
    const panels = await listPanels(sql);
    const candidate = named(panels, name);
    const against = withName ? named(panels, withName) : panels.find((p) => p.inForce);
    if (!against) throw new AppError("BAD_INPUT", "no panel is in force: name one to compare with", "with");
    return { candidate, against, ...(await comparisonInputs(sql, [candidate.id, against.id])) };
  });
  return {
    candidate,
    against,
    // Seconds at paper scale: off the request thread, after the snapshot's connection is given back.
    comparison: await offThread("comparePanels", trajectories, votes, against.judges, candidate.judges),
    trajectories: new Map(trajectories.map((t) => [t.id, t])),
    monitors: await panelMonitors([against.name, candidate.name]),
  };
}

function named(panels: readonly PanelView[], name: string): PanelView {
  const panel = panels.find((p) => p.name === name);
  if (!panel) throw new AppError("NOT_FOUND", `no panel named "${name.slice(0, 200)}"`, "panel");
  return panel;
}

async function comparisonInputs(
  sql: Sql,
  panelIds: readonly number[],
): Promise<{ trajectories: ComparedTrajectory[]; votes: StoredVote[] }> {
  const rows = await sql.query<ComparedTrajectory & { gold: string | null }>(TRAJECTORIES_SQL);
  const votes = await sql.query<VoteRow>(VOTES_SQL, [panelIds]);
  return {
    trajectories: rows.map((r) => ({ ...r, gold: r.gold as Verdict | null })),
    votes: votes.map((v) => ({
      trajectoryId: v.trajectoryId,
      judge: v.judge,
      promptVersion: v.promptVersion || null,
      verdicts: voteVerdicts(v),
      // As derived.ts orders them: the newest of a judge's listed versions counts.
      order: new Date(v.votedAt).getTime(),
      tokens: v.tokens,
      cost: v.cost,
    })),
  };
}
