import "server-only";
// Evidence rows, recomputed in the transaction of the write that changed their inputs (decision 24).
import { categorized, uncategorizedEvidence } from "@/lib/domain/evidence";
import { patchSimilarity } from "@/lib/domain/patch-similarity";
import type { StepMessage } from "@/lib/domain/steps";
import { stepCategories } from "./evidence-categories";
import type { Sql } from "./sql";

/** Trajectories read back at a time: their messages are held while their evidence is computed. */
const CHUNK = 50;

type Target = {
  id: number;
  patch: string | null;
  instanceId: string;
  reference: string;
  testPatch: string | null;
  createdAt: Date | null;
};

/** The trajectories among `trajectoryIds`, or of the tasks `instanceIds`, that have a task record. */
async function targets(sql: Sql, trajectoryIds: readonly number[], instanceIds: readonly string[]) {
  return sql.query<Target>(
    `SELECT t.id, t.patch, r."instanceId", r.patch AS reference, r."testPatch", r."createdAt"
       FROM trajectory t JOIN task k ON k.id = t."taskId" JOIN task_record r ON r."instanceId" = k.key
      WHERE t.id = ANY($1::int[]) OR k.key = ANY($2::text[])
      ORDER BY t.id`,
    [[...new Set(trajectoryIds)], [...new Set(instanceIds)]],
  );
}

/** The numbered messages of some trajectories, with their tool calls, as lib/domain/steps has them. */
async function messagesOf(sql: Sql, ids: readonly number[]): Promise<Map<number, StepMessage[]>> {
  const messages = await sql.query<{
    trajectoryId: number;
    seq: number;
    step: number;
    role: StepMessage["role"];
    content: string;
  }>(
    // Only tool outputs are read for their text; assistant messages number the steps and carry the calls.
    `SELECT "trajectoryId", seq, step, role::text AS role, CASE WHEN role = 'tool' THEN content ELSE '' END AS content
       FROM message
      WHERE "trajectoryId" = ANY($1::int[]) AND step > 0 AND role IN ('assistant', 'tool')
      ORDER BY "trajectoryId", step, seq`,
    [ids],
  );
  const calls = await sql.query<{
    trajectoryId: number;
    messageSeq: number;
    seq: number;
    input: string;
    inputIsJson: boolean;
  }>(
    `SELECT "trajectoryId", "messageSeq", seq, input, "inputIsJson" FROM tool_call
      WHERE "trajectoryId" = ANY($1::int[]) AND step > 0 ORDER BY "trajectoryId", "messageSeq", seq`,
    [ids],
  );
  const byMessage = new Map<string, StepMessage["toolCalls"]>();
  for (const c of calls) {
    const key = `${c.trajectoryId}:${c.messageSeq}`;
    const list = byMessage.get(key) ?? [];
    list.push({ seq: c.seq, callId: null, name: "", input: c.input, inputIsJson: c.inputIsJson });
    byMessage.set(key, list);
  }
  const out = new Map<number, StepMessage[]>(ids.map((id) => [id, []]));
  for (const m of messages)
    out.get(m.trajectoryId)!.push({
      seq: m.seq,
      step: m.step,
      role: m.role,
      content: m.content,
      reasoning: null,
      toolCallId: null,
      exitCode: null,
      toolCalls: byMessage.get(`${m.trajectoryId}:${m.seq}`) ?? [],
    });
  return out;
}

/** Recomputes the evidence of these trajectories and of every trajectory of these tasks. */
export async function refreshEvidence(
  sql: Sql,
  trajectoryIds: readonly number[],
  instanceIds: readonly string[] = [],
): Promise<void> {
  if (!trajectoryIds.length && !instanceIds.length) return;
  const all = await targets(sql, trajectoryIds, instanceIds);
  for (let i = 0; i < all.length; i += CHUNK) {
    const chunk = all.slice(i, i + CHUNK);
    const ids = chunk.map((t) => t.id);
    const messages = await messagesOf(sql, ids);
    const raw = new Map(
      chunk.map((t) => [
        t.id,
        uncategorizedEvidence(
          messages.get(t.id)!,
          { instanceId: t.instanceId, patch: t.reference, testPatch: t.testPatch, createdAt: t.createdAt },
          t.patch,
        ),
      ]),
    );
    // Kept hits asked only for the steps holding evidence (the scan sorts them again after a rewrite).
    const categories = await stepCategories(
      sql,
      [...raw].flatMap(([id, items]) => items.map((i) => ({ trajectoryId: id, step: i.step }))),
    );
    const rows: Array<[number, number, string, number, string | null, string, string | null]> = [];
    const columns = chunk.map((t) => {
      const items = categorized(raw.get(t.id)!, (step) => categories.get(`${t.id}:${step}`) ?? null);
      for (const [seq, e] of items.entries())
        rows.push([t.id, seq, e.kind, e.step, e.category, e.detail, e.lines ? JSON.stringify(e.lines) : null]);
      return {
        id: t.id,
        similarity: patchSimilarity(t.patch, t.reference),
        kinds: [...new Set(items.map((e) => e.kind))],
      };
    });
    await sql.query(`DELETE FROM evidence WHERE "trajectoryId" = ANY($1::int[])`, [ids]);
    if (rows.length)
      await sql.query(
        `INSERT INTO evidence ("trajectoryId", seq, kind, step, category, detail, lines)
         SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::jsonb[])`,
        [0, 1, 2, 3, 4, 5, 6].map((k) => rows.map((r) => r[k])),
      );
    await sql.query(
      `UPDATE trajectory t SET "patchSimilarity" = c.similarity, "evidenceKinds" = c.kinds, "taskRecorded" = true
         FROM (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id int, similarity float8, kinds text[])) c
        WHERE t.id = c.id`,
      [JSON.stringify(columns)],
    );
  }
}
