import "server-only";
// An import's trajectories, replaced by natural key (votes and labels stay), in batches: rows, COPY, documents.
import { storableJson, storableText } from "@/lib/domain/text";
import { markForScan } from "../rule-matches";
import { SearchDocumentWriter } from "../search-documents";
import { sideTransaction } from "../sql";
import type { ImportContext, RecordError } from "./context";
import { MESSAGE_COLUMNS, type PreparedTrajectory, TOOL_CALL_COLUMNS } from "./prepared";

type Keyed = PreparedTrajectory & { benchmarkId: number; modelId: number; taskId: number };

type TaskRow = {
  benchmarkId: number;
  key: string;
  repo: string | null;
  baseCommit: string | null;
  language: string | null;
};

type IdKey = { benchmarkId: number; modelId: number; taskId: number; network: boolean; prompt: string; run: number };
const keyString = (k: IdKey) => [k.benchmarkId, k.modelId, k.taskId, k.network, k.prompt, k.run].join("\u0000");
const keyOf = (r: Keyed) => keyString({ ...r, network: r.record.network, prompt: r.record.prompt, run: r.record.run });
const t = (s: string | null | undefined) => (s == null ? null : storableText(s));

// A task is written only when new or given something it lacked.
const TASK_SQL = `
  WITH given AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[])
      AS g("benchmarkId", key, repo, "baseCommit", language)),
  written AS (
    INSERT INTO task ("benchmarkId", key, repo, "baseCommit", language) SELECT * FROM given
    ON CONFLICT ("benchmarkId", key) DO UPDATE SET repo = COALESCE(EXCLUDED.repo, task.repo),
      "baseCommit" = COALESCE(EXCLUDED."baseCommit", task."baseCommit"),
      language = COALESCE(EXCLUDED.language, task.language)
    WHERE (task.repo, task."baseCommit", task.language) IS DISTINCT FROM
      (COALESCE(EXCLUDED.repo, task.repo), COALESCE(EXCLUDED."baseCommit", task."baseCommit"),
       COALESCE(EXCLUDED.language, task.language))
    RETURNING id, "benchmarkId", key)
  SELECT id, "benchmarkId", key FROM written
  UNION ALL
  SELECT t.id, t."benchmarkId", t.key FROM task t JOIN given g USING ("benchmarkId", key)
   WHERE NOT EXISTS (SELECT FROM written w WHERE w."benchmarkId" = t."benchmarkId" AND w.key = t.key)`;

// A trajectory brought again exactly as it is stored (the same digest) is left alone: not returned.
const TRAJECTORY_SQL = `
  INSERT INTO trajectory ("externalId", "benchmarkId", "modelId", "taskId", network, prompt, run, resolved, patch,
    metadata,
    "sourceFormat", "stepCount", "messageCount", "importId", "updatedAt", "contentDigest")
  SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::bool[], $6::text[]::"Prompt"[], $7::int[],
    $8::bool[], $9::text[],
    $10::text[]::jsonb[], $11::text[], $12::int[], $13::int[], $14::int[], $15::text[]::timestamp[], $16::text[])
  ON CONFLICT ("benchmarkId", "modelId", "taskId", network, prompt, run) DO UPDATE SET
    "externalId" = COALESCE(EXCLUDED."externalId", trajectory."externalId"), resolved = EXCLUDED.resolved,
    patch = EXCLUDED.patch,
    metadata = EXCLUDED.metadata, "sourceFormat" = EXCLUDED."sourceFormat", "stepCount" = EXCLUDED."stepCount",
    "messageCount" = EXCLUDED."messageCount", "importId" = EXCLUDED."importId", "updatedAt" = EXCLUDED."updatedAt",
    "contentDigest" = EXCLUDED."contentDigest"
  WHERE trajectory."contentDigest" IS DISTINCT FROM EXCLUDED."contentDigest"
  RETURNING id, (xmax = 0) AS inserted, "benchmarkId", "modelId", "taskId", network, prompt::text, run`;

type Written = IdKey & { id: number; inserted: boolean };

export class TrajectoryWriter {
  private readonly taskIds = new Map<string, number>();
  private readonly search: SearchDocumentWriter;

  constructor(private readonly ctx: ImportContext) {
    this.search = new SearchDocumentWriter(ctx.sql, sideTransaction);
  }

  /** Writes a batch; the last record of a natural key wins, as a later import would. */
  async write(batch: readonly PreparedTrajectory[]): Promise<RecordError[]> {
    const items = [...new Map(batch.map((p) => [p.key, p])).values()];
    if (!items.length) return [];
    const list = await this.keyed(items);
    const errors = await this.checkExternalIds(list);
    if (errors.length) return errors;
    const written = await this.upsert(list);
    const idByKey = new Map(written.map((w) => [keyString(w), w.id]));
    const replacedIds = written.filter((w) => !w.inserted).map((w) => w.id);
    if (replacedIds.length)
      await this.ctx.sql.query(`DELETE FROM message WHERE "trajectoryId" = ANY($1::int[])`, [replacedIds]);
    // Those stored exactly so already are not written again: nothing of theirs moves.
    const changed = list.filter((r) => idByKey.has(keyOf(r)));
    this.ctx.counts.unchanged += list.length - changed.length;
    this.ctx.counts.trajectories += list.length;
    this.ctx.counts.replaced += replacedIds.length + batch.length - items.length;
    if (!changed.length) return [];
    const ids = changed.map((r) => idByKey.get(keyOf(r))!);
    await markForScan(this.ctx.sql, ids);
    for (const id of ids) {
      this.ctx.touched.add(id);
      this.ctx.written.add(id);
    }
    // First, so that on PostgreSQL the documents are indexed on the side while the rows are copied.
    const inserted = new Map(written.map((w) => [w.id, w.inserted]));
    await this.search.write(
      changed.map((r, i) => ({ trajectoryId: ids[i]!, inserted: inserted.get(ids[i]!)!, ...r.search })),
    );
    await this.copyTurns(changed, ids);
    return [];
  }

  private async keyed(items: readonly PreparedTrajectory[]): Promise<Keyed[]> {
    const benchmarks = await this.ctx.nameIds(
      "benchmark",
      items.map((i) => storableText(i.record.benchmark)),
    );
    const models = await this.ctx.nameIds(
      "agent_model",
      items.map((i) => storableText(i.record.model)),
    );
    const taskRows = new Map<string, TaskRow>();
    for (const { record: r } of items) {
      const benchmarkId = benchmarks.get(storableText(r.benchmark))!;
      const key = storableText(r.task.id);
      taskRows.set(`${benchmarkId}\u0000${key}`, {
        benchmarkId,
        key,
        repo: t(r.task.repo),
        baseCommit: t(r.task.base_commit),
        language: t(r.task.language),
      });
    }
    await this.tasks([...taskRows.values()]);
    return items.map((item) => {
      const benchmarkId = benchmarks.get(storableText(item.record.benchmark))!;
      const taskId = this.taskIds.get(`${benchmarkId}\u0000${storableText(item.record.task.id)}`)!;
      return { ...item, benchmarkId, modelId: models.get(storableText(item.record.model))!, taskId };
    });
  }

  /** Task ids by (benchmark id, task key), creating tasks and filling repo/base commit/language when given. */
  private async tasks(rows: readonly TaskRow[]): Promise<void> {
    if (!rows.length) return;
    const column = <T>(f: (r: TaskRow) => T) => rows.map(f);
    const found = await this.ctx.sql.query<{ id: number; benchmarkId: number; key: string }>(TASK_SQL, [
      column((r) => r.benchmarkId),
      column((r) => r.key),
      column((r) => r.repo),
      column((r) => r.baseCommit),
      column((r) => r.language),
    ]);
    for (const r of found) this.taskIds.set(`${r.benchmarkId}\u0000${r.key}`, r.id);
  }

  private async upsert(list: readonly Keyed[]): Promise<Written[]> {
    const col = <T>(f: (r: Keyed) => T) => list.map(f);
    return this.ctx.sql.query<Written>(TRAJECTORY_SQL, [
      col((r) => t(r.record.id)),
      col((r) => r.benchmarkId),
      col((r) => r.modelId),
      col((r) => r.taskId),
      col((r) => r.record.network),
      col((r) => r.record.prompt),
      col((r) => r.record.run),
      col((r) => r.record.resolved),
      col((r) => t(r.record.patch)),
      col((r) => JSON.stringify(storableJson(r.record.metadata))),
      col((r) => r.format),
      col((r) => r.stepCount),
      col((r) => r.messageCount),
      col(() => this.ctx.importId),
      col(() => this.ctx.now.toISOString()),
      col((r) => r.digest),
    ]);
  }

  /** Turns by COPY, each encoded row given its trajectory id in front (COPY escapes newlines inside values). */
  private async copyTurns(list: readonly Keyed[], ids: readonly number[]): Promise<void> {
    const withIds = (rows: (r: Keyed) => string) =>
      (function* () {
        for (let i = 0; i < list.length; i++) {
          const block = rows(list[i]!);
          if (block) yield `${ids[i]}\t${block.replaceAll("\n", `\n${ids[i]}\t`)}\n`;
        }
      })();
    await this.ctx.sql.copyText(
      "message",
      MESSAGE_COLUMNS,
      withIds((r) => r.messageRows),
    );
    await this.ctx.sql.copyText(
      "tool_call",
      TOOL_CALL_COLUMNS,
      withIds((r) => r.callRows),
    );
  }

  /** An `id` may name only one natural key: reusing it for another trajectory is an error. */
  private async checkExternalIds(rows: readonly Keyed[]): Promise<RecordError[]> {
    const withId = rows.filter((r) => r.record.id);
    if (!withId.length) return [];
    const claimed = new Map<string, string>();
    const existing = await this.ctx.sql.query<IdKey & { externalId: string }>(
      `SELECT "externalId", "benchmarkId", "modelId", "taskId", network, prompt::text, run FROM trajectory WHERE
        "externalId" = ANY($1::text[])`,
      [withId.map((r) => storableText(r.record.id!))],
    );
    for (const e of existing) claimed.set(e.externalId, keyString(e));
    const errors: RecordError[] = [];
    for (const r of withId) {
      const id = storableText(r.record.id!);
      const other = claimed.get(id);
      if (other === undefined || other === keyOf(r)) claimed.set(id, keyOf(r));
      else
        errors.push({
          line: r.line,
          field: "id",
          message:
            `id "${id}" already names another trajectory (a different benchmark, model, task, network, ` +
            `prompt or run)`,
        });
    }
    return errors;
  }

  /** Returns the connection the search documents were written on; call whatever happened. */
  release(): Promise<void> {
    return this.search.release();
  }

  /** Commits the search documents (just before the import's own commit). Call once, last. */
  finish(): Promise<void> {
    return this.search.finish();
  }
}
