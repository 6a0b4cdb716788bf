import "server-only";
import { currentScope } from "@/lib/db/scope";
// The monitors' inputs in one snapshot: gold labels in scope, every vote on them, the panels, the rules' hits.
import type { MonitorInput, MonitorReport } from "@/lib/domain/monitor-report";
import { ALL } from "@/lib/domain/monitors";
import { verdictMap } from "@/lib/domain/verdicts";
import { offThread } from "@/lib/server/compute-thread";
import { listCategories } from "./categories";
import { voteVerdicts } from "./derived";
import { GOLD_IN_FORCE } from "./gold";
import { listPanels } from "./panels";
import { type Sql, transaction } from "./sql";

const GOLD_SQL = `
  SELECT gl."trajectoryId", gl.verdicts AS gold, t.network, t.prompt::text AS prompt
  FROM ${GOLD_IN_FORCE} gl JOIN trajectory t ON t.id = gl."trajectoryId"
  WHERE $1::int IS NULL OR EXISTS (SELECT 1 FROM study_item i WHERE i."studyId" = $1::int AND i."trajectoryId" = t.id)
  ORDER BY gl."trajectoryId"`;

const VOTES_SQL = `
  SELECT v."trajectoryId", j.name AS judge, v."promptVersion", v.verdicts, v.confidence, v."votedAt"
  FROM judge_vote v JOIN judge j ON j.id = v."judgeId" WHERE v."trajectoryId" = ANY($1::int[])
  ORDER BY v.id`;

// The enabled rules in force, each with the trajectories (of these) it fires on.
const RULES_SQL = `
  SELECT r.name, r.category, coalesce(array_agg(m."trajectoryId") FILTER (WHERE m."trajectoryId" IS NOT NULL),
    '{}') AS fires
  FROM rules_in_force() r LEFT JOIN rule_match m ON m."ruleId" = r.id AND m."trajectoryId" = ANY($1::int[])
  WHERE r.enabled GROUP BY r.name, r.category ORDER BY r.name`;

export type MonitorScope = { studyId?: number };

type VoteRow = {
  trajectoryId: number;
  judge: string;
  promptVersion: number;
  verdicts: unknown;
  confidence: Record<string, number> | null;
  votedAt: Date;
};

/** What the monitors are measured on, in a scope (a study: its items and its categories). */
export async function monitorInput(scope: MonitorScope = {}): Promise<MonitorInput> {
  return transaction(async (sql) => {
    if (!currentScope()) await sql.query(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
    const gold = (
      await sql.query<{ trajectoryId: number; gold: unknown; network: boolean; prompt: string }>(GOLD_SQL, [
        scope.studyId ?? null,
      ])
    ).map((g) => ({ ...g, gold: verdictMap(g.gold) }));
    const ids = gold.map((g) => g.trajectoryId);
    const votes = await sql.query<VoteRow>(VOTES_SQL, [ids]);
    const rules = await sql.query<{ name: string; category: string; fires: number[] }>(RULES_SQL, [ids]);
    return {
      gold,
      votes: votes.map((v) => ({
        trajectoryId: v.trajectoryId,
        judge: v.judge,
        promptVersion: v.promptVersion || null,
        verdicts: voteVerdicts(v),
        confidence: v.confidence,
        order: new Date(v.votedAt).getTime(),
      })),
      panels: (await listPanels(sql)).map((p) => ({ name: p.name, inForce: p.inForce, members: p.judges })),
      rules,
      categories: await measuredCategories(sql, scope),
    };
  });
}

async function measuredCategories(sql: Sql, scope: MonitorScope) {
  const all = await listCategories(sql);
  if (scope.studyId === undefined) return all.map((c) => ({ key: c.key, name: c.name }));
  const [study] = await sql.query<{ categories: string[] }>(`SELECT categories FROM study WHERE id = $1`, [
    scope.studyId,
  ]);
  const names = new Map(all.map((c) => [c.key, c.name]));
  const keys = study?.categories.length ? study.categories : all.map((c) => c.key);
  return keys.map((key) => ({ key, name: names.get(key) ?? key }));
}

export async function getMonitors(scope: MonitorScope = {}): Promise<MonitorReport> {
  return offThread("monitorReport", await monitorInput(scope));
}

/** Two panels as monitors (the compare page's): their rows overall and per category, in that order. */
export async function panelMonitors(names: readonly string[]): Promise<MonitorReport["rows"]> {
  const input = await monitorInput();
  const panels = names.flatMap((n) => input.panels.filter((p) => p.name === n));
  const { rows } = await offThread("monitorReport", { ...input, panels }, undefined, true);
  const order = [ALL, ...input.categories.map((c) => c.key)];
  return rows.sort((a, b) => order.indexOf(a.category) - order.indexOf(b.category));
}
