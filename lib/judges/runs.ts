import "server-only";
// Judge runs (interchange.md, "Running judges"): every trajectory matching the list's filters,
// asked of each named judge under the prompt version in force, once per (trajectory version, judge,
// prompt version). A pair answered before is not asked again; one left pending or failed by an
// earlier run is asked again by this one.
import { db } from "@/lib/db";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { trajectoryWhere } from "@/lib/data/trajectories";
import { currentPrompt } from "@/lib/data/judges";
import { transaction } from "@/lib/data/sql";

export type RunPlan = {
  runId: number;
  promptVersion: number;
  /** Requests this run will make (pairs not answered yet), and pairs answered before. */
  requests: Array<{ id: number; judgeId: number }>;
  answeredBefore: number;
  estimate: { tokensIn: number; cost: number | null };
};

/** Creates a run and its requests; refuses judges without an endpoint. */
export async function planRun(judgeNames: readonly string[], filter: TrajectoryFilter, by: string): Promise<RunPlan> {
  const judges = await db().judge.findMany({
    where: { name: { in: [...judgeNames] } },
    select: {
      id: true,
      name: true,
      baseUrl: true,
      contextTokens: true,
      priceInPerMillion: true,
      priceOutPerMillion: true,
    },
  });
  const missing = judgeNames.filter((n) => !judges.some((j) => j.name === n));
  if (missing.length) throw new Error(`no judge named ${missing.join(", ")} (judge add defines one)`);
  const unrunnable = judges.filter((j) => !j.baseUrl).map((j) => j.name);
  if (unrunnable.length) throw new Error(`${unrunnable.join(", ")}: known from imported votes only, with no endpoint`);
  const prompt = await currentPrompt();
  const trajectories = await db().trajectory.findMany({
    where: trajectoryWhere(filter),
    select: { id: true, updatedAt: true },
  });
  const run = await db().judgeRun.create({
    data: { promptVersion: prompt.version, judges: [...judgeNames], filter: filter as object, createdBy: by },
    select: { id: true },
  });
  const requests: RunPlan["requests"] = [];
  let answeredBefore = 0;
  await transaction(async (sql) => {
    for (const judge of judges) {
      for (let i = 0; i < trajectories.length; i += 5000) {
        const chunk = trajectories.slice(i, i + 5000);
        const rows = await sql.query<{ id: number; status: string }>(
          `INSERT INTO judge_request ("runId", "trajectoryId", "trajectoryVersion", "judgeId", "promptVersion")
           SELECT $1, t, v, $4, $5 FROM unnest($2::int[], $3::timestamp[]) AS x(t, v)
           ON CONFLICT ("trajectoryId", "trajectoryVersion", "judgeId", "promptVersion") DO UPDATE
             SET "runId" = CASE WHEN judge_request.status = 'DONE' THEN judge_request."runId" ELSE EXCLUDED."runId" END,
                 status = CASE WHEN judge_request.status = 'DONE' THEN 'DONE' ELSE 'PENDING' END,
                 error = CASE WHEN judge_request.status = 'DONE' THEN judge_request.error ELSE NULL END
           RETURNING id, status`,
          [run.id, chunk.map((t) => t.id), chunk.map((t) => t.updatedAt.toISOString()), judge.id, prompt.version],
        );
        for (const r of rows)
          if (r.status === "DONE") answeredBefore += 1;
          else requests.push({ id: r.id, judgeId: judge.id });
      }
    }
  });
  return {
    runId: run.id,
    promptVersion: prompt.version,
    requests,
    answeredBefore,
    estimate: await estimate(requests, judges),
  };
}

/** Input tokens (about four characters each, up to the judge's budget) and cost, where prices are known. */
async function estimate(
  requests: RunPlan["requests"],
  judges: Array<{
    id: number;
    contextTokens: number;
    priceInPerMillion: number | null;
    priceOutPerMillion: number | null;
  }>,
): Promise<RunPlan["estimate"]> {
  if (!requests.length) return { tokensIn: 0, cost: 0 };
  const sizes = await db().$queryRaw<Array<{ judgeId: number; tokens: number }>>`
    SELECT r."judgeId", sum(LEAST(s.chars / 4, j."contextTokens"))::float8 AS tokens
      FROM judge_request r JOIN judge j ON j.id = r."judgeId"
      JOIN LATERAL (SELECT coalesce(sum(length(m.content) + coalesce(length(m.reasoning), 0)), 0) AS chars
                      FROM message m WHERE m."trajectoryId" = r."trajectoryId") s ON true
     WHERE r.id = ANY(${requests.map((r) => r.id)}::int[])
     GROUP BY r."judgeId"`;
  let tokensIn = 0;
  let cost: number | null = 0;
  for (const s of sizes) {
    tokensIn += s.tokens;
    const j = judges.find((x) => x.id === s.judgeId)!;
    const asked = requests.filter((r) => r.judgeId === s.judgeId).length;
    if (j.priceInPerMillion == null || cost === null) cost = null;
    else cost += (s.tokens * j.priceInPerMillion + asked * 400 * (j.priceOutPerMillion ?? 0)) / 1e6;
  }
  return { tokensIn: Math.round(tokensIn), cost };
}

export type RunProgress = {
  pending: number;
  asking: number;
  done: number;
  failed: number;
  stale: number;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  errors: string[];
};

export async function runProgress(runId: number): Promise<RunProgress> {
  const [row] = await db().$queryRaw<Array<Omit<RunProgress, "errors">>>`
    SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
           count(*) FILTER (WHERE status = 'ASKING')::int AS asking,
           count(*) FILTER (WHERE status = 'DONE')::int AS done,
           count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
           count(*) FILTER (WHERE status = 'STALE')::int AS stale,
           coalesce(sum("tokensIn"), 0)::int AS "tokensIn", coalesce(sum("tokensOut"), 0)::int AS "tokensOut",
           coalesce(sum(cost), 0)::float8 AS cost
      FROM judge_request WHERE "runId" = ${runId}`;
  const errors = await db().judgeRequest.findMany({
    where: { runId, status: "FAILED" },
    select: { error: true },
    take: 20,
  });
  return { ...row!, errors: errors.map((e) => e.error ?? "") };
}
