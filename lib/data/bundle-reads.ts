import "server-only";
// What a bundle holds of the trajectories, read a chunk at a time: no account, email or internal id leaves.
import type { BundleTrajectory, BundleTrajectoryRow } from "@/lib/domain/bundle";
import { verdictMap } from "@/lib/domain/verdicts";
import { GOLD_IN_FORCE } from "./gold";
import { statement } from "./sql";
import { readEvidence } from "./trajectory";

/** Characters of a text kept before it is cut (its full length said beside it), as the timeline shows it. */
export const BUNDLE_TEXT = 4000;

const ROWS_SQL = `
  SELECT t.id, b.name AS benchmark, m.name AS model, k.key AS task, t.network, t.prompt::text AS prompt, t.run,
    t.resolved, t."stepCount" AS steps, t."panelVerdict"::text AS panel, t."panelSplit"::text AS split,
    t."goldOverall"::text AS gold, t."messageCount" AS messages,
    (SELECT count(DISTINCT r.step)::int FROM rule_match r WHERE r."trajectoryId" = t.id
      AND r."ruleId" IN (SELECT id FROM rules_scanned())) AS suspect
  FROM trajectory t JOIN benchmark b ON b.id = t."benchmarkId" JOIN agent_model m ON m.id = t."modelId"
    JOIN task k ON k.id = t."taskId"
  ORDER BY b.name, m.name, k.key, t.network DESC, t.prompt, t.run, t.id`;

/** A trajectory as read for the bundle: its row, its id and how many messages it holds (neither is written). */
export type BundleRead = BundleTrajectoryRow & { id: number; messages: number };

/** Every trajectory in the bundle's order (benchmark, model, task, condition, run): its number is its place. */
export async function bundleRows(): Promise<BundleRead[]> {
  const rows = await statement<Omit<BundleRead, "n">>(ROWS_SQL);
  return rows.map((r, i) => ({ ...r, n: i + 1 }));
}

const HEAD_SQL = `
  SELECT t.id, left(t.patch, $2) AS patch, coalesce(length(t.patch), 0) AS "patchLength",
    t."patchSimilarity" AS similarity, t."panelCategories" AS categories
  FROM trajectory t WHERE t.id = ANY($1::int[])`;
const VOTES_SQL = `
  SELECT v."trajectoryId" AS id, j.name AS judge, nullif(v."promptVersion", 0) AS "promptVersion", v.counted,
    v.overall::text AS overall, v.verdicts, v."parseStatus"::text AS "parseStatus", left(v.rationale, $2) AS rationale,
    v.evidence
  FROM judge_vote v JOIN judge j ON j.id = v."judgeId" WHERE v."trajectoryId" = ANY($1::int[])
  ORDER BY v.counted DESC, j.name, v."promptVersion"`;
const GOLD_SQL = `
  SELECT g."trajectoryId" AS id, u.handle AS who, g.verdicts, g.overall::text AS overall,
    left(g.note, $2) AS note, g.evidence
  FROM ${GOLD_IN_FORCE} g JOIN "user" u ON u.id = g."adjudicatorId" WHERE g."trajectoryId" = ANY($1::int[])`;
const EVIDENCE_SQL = `
  SELECT "trajectoryId" AS id, kind, step, category, left(detail, $2) AS detail FROM evidence
  WHERE "trajectoryId" = ANY($1::int[]) ORDER BY "trajectoryId", seq`;
const MARKS_SQL = `
  SELECT DISTINCT m."trajectoryId" AS id, m.step, l.name AS rule, l.category, l.why, l.rank
  FROM rule_match m JOIN rule l ON l.id = m."ruleId"
  WHERE m."trajectoryId" = ANY($1::int[]) AND l.id IN (SELECT id FROM rules_scanned())
  ORDER BY m.step, l.rank, l.name`;
// Each trajectory's messages as one JSON text, built by the database (none of it parsed here): texts cut.
const MESSAGES_SQL = `
  WITH c AS (
    SELECT "trajectoryId", "messageSeq", json_agg(json_build_object('name', name, 'input', left(input, $2),
      'inputLength', length(input)) ORDER BY seq) AS calls
    FROM tool_call WHERE "trajectoryId" = ANY($1::int[]) GROUP BY 1, 2)
  SELECT m."trajectoryId" AS id, json_agg(json_build_object('step', m.step, 'role', m.role::text,
    'content', left(m.content, $2), 'contentLength', length(m.content), 'reasoning', left(m.reasoning, $2),
    'reasoningLength', coalesce(length(m.reasoning), 0), 'exitCode', m."exitCode",
    'calls', coalesce(c.calls, '[]'::json)) ORDER BY m.step, m.seq)::text AS messages
  FROM message m LEFT JOIN c ON c."trajectoryId" = m."trajectoryId" AND c."messageSeq" = m.seq
  WHERE m."trajectoryId" = ANY($1::int[]) GROUP BY m."trajectoryId"`;

function byId<T extends { id: number }>(rows: readonly T[]): Map<number, Array<Omit<T, "id">>> {
  const out = new Map<number, Array<Omit<T, "id">>>();
  for (const { id, ...rest } of rows)
    out
      .set(id, out.get(id) ?? [])
      .get(id)!
      .push(rest);
  return out;
}

type Head = { id: number; patch: string | null; patchLength: number; similarity: number | null; categories: unknown };
type Vote = { id: number; judge: string; promptVersion: number | null; counted: boolean; overall: string | null };
type VoteRow = Vote & { verdicts: unknown; parseStatus: string; rationale: string | null; evidence: unknown };
type GoldRow = { id: number; who: string; verdicts: unknown; overall: string; note: string | null; evidence: unknown };
type Item = { id: number; kind: string; step: number; category: string | null; detail: string };
type Mark = { id: number; step: number; rule: string; category: string; why: string };

/** Everyone who gave a gold label, by handle. */
export async function adjudicatorHandles(): Promise<string[]> {
  const rows = await statement<{ handle: string }>(
    `SELECT DISTINCT u.handle FROM gold_label g JOIN "user" u ON u.id = g."adjudicatorId" ORDER BY 1`,
  );
  return rows.map((r) => r.handle);
}

/** A trajectory's details but its messages, and those as the JSON text of `BundleTrajectory["messages"]`. */
export type BundleDetail = Omit<BundleTrajectory, keyof BundleTrajectoryRow | "messages"> & { messagesJson: string };

/** The trajectories' details (`ids` a chunk), keyed by id; `person` names an adjudicator (by handle) as shown. */
export async function bundleDetails(
  ids: readonly number[],
  person: (userId: string) => string,
): Promise<Map<number, BundleDetail>> {
  const args = [ids, BUNDLE_TEXT];
  const [heads, votes, golds, items, marks, messages] = await Promise.all([
    statement<Head>(HEAD_SQL, args),
    statement<VoteRow>(VOTES_SQL, args),
    statement<GoldRow>(GOLD_SQL, args),
    statement<Item>(EVIDENCE_SQL, args),
    statement<Mark>(MARKS_SQL, [ids]),
    statement<{ id: number; messages: string }>(MESSAGES_SQL, args),
  ]);
  const [votesOf, itemsOf, marksOf] = [byId(votes), byId(items), byId(marks)];
  const messagesOf = new Map(messages.map((m) => [m.id, m.messages]));
  const goldOf = new Map(golds.map((g) => [g.id, g]));
  return new Map(
    heads.map((h) => {
      const g = goldOf.get(h.id);
      return [
        h.id,
        {
          patch: h.patch,
          patchLength: h.patchLength,
          similarity: h.similarity,
          categories: verdictMap(h.categories),
          votes: (votesOf.get(h.id) ?? []).map((v) => ({
            ...v,
            verdicts: verdictMap(v.verdicts),
            evidence: readEvidence(v.evidence),
          })),
          goldLabel: g
            ? {
                by: person(g.who),
                verdicts: verdictMap(g.verdicts),
                overall: g.overall,
                note: g.note,
                evidence: readEvidence(g.evidence),
              }
            : null,
          evidence: itemsOf.get(h.id) ?? [],
          marks: marksOf.get(h.id) ?? [],
          messagesJson: messagesOf.get(h.id) ?? "[]",
        },
      ];
    }),
  );
}

/** A task's record as the bundle shows it (texts cut), or null without one. */
export async function bundleTaskRecords(keys: readonly string[]) {
  return statement<{
    key: string;
    repo: string | null;
    baseCommit: string | null;
    createdAt: Date | null;
    problemStatement: string | null;
    patch: string;
    testPatch: string | null;
  }>(
    `SELECT "instanceId" AS key, repo, "baseCommit", "createdAt", left("problemStatement", $2) AS "problemStatement",
      left(patch, $2) AS patch, left("testPatch", $2) AS "testPatch" FROM task_record WHERE "instanceId" = ANY($1)`,
    [keys, BUNDLE_TEXT * 4],
  );
}
