import "server-only";
// Writes validated interchange records inside one transaction (lib/data/sql.ts). Used by the seed,
// the command-line import and the browser import alike, so every way in follows the same rules:
// - a trajectory's natural key already present: the trajectory and its turns are replaced
//   (its votes and labels stay), never duplicated;
// - a judge's newer vote replaces its older one on the same trajectory; an older one is ignored;
// - a vote or label naming a trajectory that does not exist is an error for that record;
// - untrusted text is stored as storableText makes it (NUL → U+2400).
// Bulk rows (messages, tool calls) go in with COPY; everything else with set-based statements.
import { numberSteps } from "@/lib/domain/steps";
import { SearchDocument } from "@/lib/domain/search";
import { storableJson, storableText } from "@/lib/domain/text";
import { parseJudgeAnswer } from "@/lib/domain/judge-answer";
import { newestPerKey } from "@/lib/domain/panel";
import { overallVerdict, type CategoryVerdicts, type Verdict } from "@/lib/domain/verdicts";
import type { JudgeVoteRecord, LabelRecord, NaturalKey, RecordError, TrajectoryRecord, TrajectoryRef } from "@/lib/import/interchange";
import { refreshDerived, voteVerdicts } from "./derived";
import { encodeCopyRow, sideTransaction, type Sql } from "./sql";
import { SearchDocumentWriter } from "./search-documents";

export type { RecordError };
export type Located<T> = { line: number; record: T };
export type WriteCounts = { trajectories: number; replaced: number; votes: number; labels: number; unparseable: number };

/** A trajectory ready to write: steps numbered, rows encoded (see ImportWriter.prepare). */
export type PreparedTrajectory = Located<TrajectoryRecord> & {
  format: string; key: string; stepCount: number; messageCount: number;
  /** COPY rows of its messages and tool calls, one a line, each line lacking only the trajectory id in front. */
  messageRows: string; callRows: string;
  search: { commands: string; outputs: string };
};

const MESSAGE_COLUMNS = ["trajectoryId", "seq", "step", "role", "content", "reasoning", "toolCallId", "exitCode"] as const;
const TOOL_CALL_COLUMNS = ["trajectoryId", "messageSeq", "step", "seq", "callId", "name", "input", "inputIsJson"] as const;

const keyString = (k: { benchmarkId: number; modelId: number; taskId: number; network: boolean; prompt: string; run: number }) =>
  [k.benchmarkId, k.modelId, k.taskId, k.network, k.prompt, k.run].join("\u0000");
const nameKeyString = (k: NaturalKey) => [k.benchmark, k.model, k.task, k.network, k.prompt, k.run].join("\u0000");
const describeKey = (k: NaturalKey) => `${k.benchmark} / ${k.model} / ${k.task} / network ${k.network ? "on" : "off"} / ${k.prompt} / run ${k.run}`;
const t = (s: string | null | undefined) => (s == null ? null : storableText(s));

export class ImportWriter {
  readonly counts: WriteCounts = { trajectories: 0, replaced: 0, votes: 0, labels: 0, unparseable: 0 };
  private readonly touched = new Set<number>();
  private readonly names = new Map<string, Map<string, number>>();
  private readonly taskIds = new Map<string, number>();

  private readonly search: SearchDocumentWriter;

  constructor(private readonly sql: Sql, private readonly opts: { importId: number | null; now: Date }) {
    this.search = new SearchDocumentWriter(sql, sideTransaction);
  }

  /** Ids of rows in a name table (benchmark, agent_model, judge), creating the missing ones. */
  private async nameIds(table: "benchmark" | "agent_model" | "judge", names: Iterable<string>): Promise<Map<string, number>> {
    const cache = this.names.get(table) ?? new Map<string, number>();
    this.names.set(table, cache);
    const missing = [...new Set(names)].filter((n) => !cache.has(n));
    if (missing.length) {
      await this.sql.query(`INSERT INTO ${table} (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`, [missing]);
      for (const r of await this.sql.query<{ id: number; name: string }>(`SELECT id, name FROM ${table} WHERE name = ANY($1::text[])`, [missing])) cache.set(r.name, r.id);
    }
    return cache;
  }

  /** Task ids by (benchmark id, task key), creating tasks and filling repo/base commit/language when given. */
  private async tasks(rows: Array<{ benchmarkId: number; key: string; repo: string | null; baseCommit: string | null; language: string | null }>): Promise<void> {
    if (!rows.length) return;
    const found = await this.sql.query<{ id: number; benchmarkId: number; key: string }>(
      `INSERT INTO task ("benchmarkId", key, repo, "baseCommit", language)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[])
       ON CONFLICT ("benchmarkId", key) DO UPDATE SET repo = COALESCE(EXCLUDED.repo, task.repo),
         "baseCommit" = COALESCE(EXCLUDED."baseCommit", task."baseCommit"), language = COALESCE(EXCLUDED.language, task.language)
       RETURNING id, "benchmarkId", key`,
      [rows.map((r) => r.benchmarkId), rows.map((r) => r.key), rows.map((r) => r.repo), rows.map((r) => r.baseCommit), rows.map((r) => r.language)],
    );
    for (const r of found) this.taskIds.set(`${r.benchmarkId}\u0000${r.key}`, r.id);
  }

  /**
   * The database-free part of writing a trajectory: steps are numbered, and message and tool-call
   * rows encoded for COPY, all but their trajectory id. Done as each record is read, while the
   * previous batch is being written, so the work is spread between the database's replies.
   */
  prepare({ line, record, format = "interchange" }: Located<TrajectoryRecord> & { format?: string }): PreparedTrajectory {
    const key = nameKeyString({ benchmark: storableText(record.benchmark), model: storableText(record.model), task: storableText(record.task.id), network: record.network, prompt: record.prompt, run: record.run });
    const { messages, stepCount } = numberSteps(record.turns);
    const messageRows: string[] = [];
    const callRows: string[] = [];
    const search = new SearchDocument();
    for (const m of messages) {
      const content = storableText(m.content);
      messageRows.push(encodeCopyRow([m.seq, m.step, m.role, content, t(m.reasoning), t(m.toolCallId), m.exitCode]));
      const inputs = m.toolCalls.map((c) => {
        const input = storableText(c.input);
        callRows.push(encodeCopyRow([m.seq, m.step, c.seq, t(c.callId), storableText(c.name), input, c.inputIsJson]));
        return input;
      });
      search.addMessage(m.role, content, inputs);
    }
    // The turns are not kept: their text now lives in the encoded rows, and a batch holds one copy, not two.
    return {
      line, record: { ...record, turns: [] }, format, key, stepCount, messageCount: messages.length,
      messageRows: messageRows.join("\n"), callRows: callRows.join("\n"), search: search.vectors(),
    };
  }

  /** Writes a batch of prepared trajectories; the last record of a natural key wins within it, as a later import would. */
  async writeTrajectories(batch: readonly PreparedTrajectory[]): Promise<RecordError[]> {
    const items = [...new Map(batch.map((p) => [p.key, p])).values()];
    if (!items.length) return [];
    const benchmarks = await this.nameIds("benchmark", items.map((i) => storableText(i.record.benchmark)));
    const models = await this.nameIds("agent_model", items.map((i) => storableText(i.record.model)));
    const taskRows = new Map<string, { benchmarkId: number; key: string; repo: string | null; baseCommit: string | null; language: string | null }>();
    for (const { record: r } of items) {
      const benchmarkId = benchmarks.get(storableText(r.benchmark))!;
      const key = storableText(r.task.id);
      taskRows.set(`${benchmarkId}\u0000${key}`, { benchmarkId, key, repo: t(r.task.repo), baseCommit: t(r.task.base_commit), language: t(r.task.language) });
    }
    await this.tasks([...taskRows.values()]);

    const list = items.map((item) => {
      const benchmarkId = benchmarks.get(storableText(item.record.benchmark))!;
      return { ...item, benchmarkId, modelId: models.get(storableText(item.record.model))!, taskId: this.taskIds.get(`${benchmarkId}\u0000${storableText(item.record.task.id)}`)! };
    });
    const errors = await this.checkExternalIds(list);
    if (errors.length) return errors;

    const col = <T>(f: (r: (typeof list)[number]) => T) => list.map(f);
    const written = await this.sql.query<{ id: number; inserted: boolean; benchmarkId: number; modelId: number; taskId: number; network: boolean; prompt: string; run: number }>(
      `INSERT INTO trajectory ("externalId", "benchmarkId", "modelId", "taskId", network, prompt, run, resolved, patch, metadata,
         "sourceFormat", "stepCount", "messageCount", "importId", "updatedAt")
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::bool[], $6::text[]::"Prompt"[], $7::int[], $8::bool[], $9::text[],
         $10::text[]::jsonb[], $11::text[], $12::int[], $13::int[], $14::int[], $15::text[]::timestamp[])
       ON CONFLICT ("benchmarkId", "modelId", "taskId", network, prompt, run) DO UPDATE SET
         "externalId" = COALESCE(EXCLUDED."externalId", trajectory."externalId"), resolved = EXCLUDED.resolved, patch = EXCLUDED.patch,
         metadata = EXCLUDED.metadata, "sourceFormat" = EXCLUDED."sourceFormat", "stepCount" = EXCLUDED."stepCount",
         "messageCount" = EXCLUDED."messageCount", "importId" = EXCLUDED."importId", "updatedAt" = EXCLUDED."updatedAt"
       RETURNING id, (xmax = 0) AS inserted, "benchmarkId", "modelId", "taskId", network, prompt::text, run`,
      [col((r) => t(r.record.id)), col((r) => r.benchmarkId), col((r) => r.modelId), col((r) => r.taskId), col((r) => r.record.network),
        col((r) => r.record.prompt), col((r) => r.record.run), col((r) => r.record.resolved), col((r) => t(r.record.patch)),
        col((r) => JSON.stringify(storableJson(r.record.metadata))), col((r) => r.format), col((r) => r.stepCount),
        col((r) => r.messageCount), col(() => this.opts.importId), col(() => this.opts.now.toISOString())],
    );
    const idByKey = new Map(written.map((w) => [keyString(w), w.id]));
    const replacedIds = written.filter((w) => !w.inserted).map((w) => w.id);
    if (replacedIds.length) await this.sql.query(`DELETE FROM message WHERE "trajectoryId" = ANY($1::int[])`, [replacedIds]);

    const ids = list.map((r) => idByKey.get(keyString({ ...r, network: r.record.network, prompt: r.record.prompt, run: r.record.run }))!);
    for (const id of ids) this.touched.add(id);
    // First, so that on PostgreSQL the documents are indexed on the side while the rows are copied.
    const inserted = new Map(written.map((w) => [w.id, w.inserted]));
    await this.search.write(list.map((r, i) => ({ trajectoryId: ids[i]!, inserted: inserted.get(ids[i]!)!, ...r.search })));
    // Each encoded row gets its trajectory id in front: the one part that needed the database. A
    // newline inside a value is escaped in COPY's text format, so every raw newline starts a row.
    const withIds = (rows: (r: (typeof list)[number]) => string) => (function* () {
      for (let i = 0; i < list.length; i++) {
        const block = rows(list[i]!);
        if (block) yield `${ids[i]}\t${block.replaceAll("\n", `\n${ids[i]}\t`)}\n`;
      }
    })();
    await this.sql.copyText("message", MESSAGE_COLUMNS, withIds((r) => r.messageRows));
    await this.sql.copyText("tool_call", TOOL_CALL_COLUMNS, withIds((r) => r.callRows));
    this.counts.trajectories += written.length;
    this.counts.replaced += replacedIds.length + batch.length - items.length;
    return [];
  }

  /** An `id` may name only one natural key: reusing it for another trajectory is an error. */
  private async checkExternalIds(rows: ReadonlyArray<{ line: number; record: TrajectoryRecord; benchmarkId: number; modelId: number; taskId: number }>): Promise<RecordError[]> {
    const withId = rows.filter((r) => r.record.id);
    if (!withId.length) return [];
    const keyOf = (r: (typeof rows)[number]) => keyString({ ...r, network: r.record.network, prompt: r.record.prompt, run: r.record.run });
    const claimed = new Map<string, string>();
    const existing = await this.sql.query<{ externalId: string; benchmarkId: number; modelId: number; taskId: number; network: boolean; prompt: string; run: number }>(
      `SELECT "externalId", "benchmarkId", "modelId", "taskId", network, prompt::text, run FROM trajectory WHERE "externalId" = ANY($1::text[])`,
      [withId.map((r) => storableText(r.record.id!))],
    );
    for (const e of existing) claimed.set(e.externalId, keyString(e));
    const errors: RecordError[] = [];
    for (const r of withId) {
      const id = storableText(r.record.id!);
      const other = claimed.get(id);
      if (other !== undefined && other !== keyOf(r)) errors.push({ line: r.line, field: "id", message: `id "${id}" already names another trajectory (a different benchmark, model, task, network, prompt or run)` });
      else claimed.set(id, keyOf(r));
    }
    return errors;
  }

  /** Trajectory ids for references by id or natural key; missing ones are absent from the map. */
  private async resolve(refs: readonly TrajectoryRef[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const ids = refs.flatMap((r) => ("id" in r ? [storableText(r.id)] : []));
    if (ids.length) {
      for (const row of await this.sql.query<{ id: number; externalId: string }>(`SELECT id, "externalId" FROM trajectory WHERE "externalId" = ANY($1::text[])`, [ids])) out.set(`id:${row.externalId}`, row.id);
    }
    const keys = refs.flatMap((r) => ("key" in r ? [r.key] : []));
    if (keys.length) {
      const rows = await this.sql.query<NaturalKey & { id: number }>(
        `SELECT tr.id, b.name AS benchmark, m.name AS model, k.key AS task, tr.network, tr.prompt::text AS prompt, tr.run
         FROM unnest($1::text[], $2::text[], $3::text[], $4::bool[], $5::text[], $6::int[]) AS q(benchmark, model, task, network, prompt, run)
         JOIN benchmark b ON b.name = q.benchmark JOIN agent_model m ON m.name = q.model JOIN task k ON k."benchmarkId" = b.id AND k.key = q.task
         JOIN trajectory tr ON tr."benchmarkId" = b.id AND tr."modelId" = m.id AND tr."taskId" = k.id
           AND tr.network = q.network AND tr.prompt::text = q.prompt AND tr.run = q.run`,
        [keys.map((k) => storableText(k.benchmark)), keys.map((k) => storableText(k.model)), keys.map((k) => storableText(k.task)), keys.map((k) => k.network), keys.map((k) => k.prompt), keys.map((k) => k.run)],
      );
      for (const row of rows) out.set(`key:${nameKeyString(row)}`, row.id);
    }
    return out;
  }

  /**
   * For a file that is already rejected: the votes or labels whose trajectory is neither in the
   * database nor among the file's own trajectories (`fileRefs`, from fileRefKeys), so one pass
   * reports every bad record.
   */
  async missingReferences(items: ReadonlyArray<Located<{ trajectory: TrajectoryRef }>>, fileRefs: ReadonlySet<string>): Promise<RecordError[]> {
    const pending = items.filter((i) => !fileRefs.has(ImportWriter.refKey(i.record.trajectory)));
    if (!pending.length) return [];
    const ids = await this.resolve(pending.map((i) => i.record.trajectory));
    return pending.filter((i) => !ids.has(ImportWriter.refKey(i.record.trajectory))).map((i) => ImportWriter.missing(i.line, i.record.trajectory));
  }

  /** The references by which a file's own trajectory can be named: its id and its natural key. */
  static fileRefKeys(r: TrajectoryRecord): string[] {
    const key = ImportWriter.refKey({ key: { benchmark: r.benchmark, model: r.model, task: r.task.id, network: r.network, prompt: r.prompt, run: r.run } });
    return r.id ? [ImportWriter.refKey({ id: r.id }), key] : [key];
  }

  static idRefKey(id: string): string {
    return ImportWriter.refKey({ id });
  }

  private static refKey(ref: TrajectoryRef): string {
    return "id" in ref ? `id:${storableText(ref.id)}` : `key:${nameKeyString({ ...ref.key, benchmark: storableText(ref.key.benchmark), model: storableText(ref.key.model), task: storableText(ref.key.task) })}`;
  }

  private static missing(line: number, ref: TrajectoryRef): RecordError {
    return { line, field: "trajectory", message: "id" in ref ? `no trajectory has id "${ref.id}"` : `no trajectory ${describeKey(ref.key)}` };
  }

  /** Located records with their trajectory id, and errors for those whose trajectory is missing. */
  private async located<T extends { trajectory: TrajectoryRef }>(items: ReadonlyArray<Located<T>>) {
    const ids = await this.resolve(items.map((i) => i.record.trajectory));
    const errors: RecordError[] = [];
    const found: Array<Located<T> & { trajectoryId: number }> = [];
    for (const item of items) {
      const id = ids.get(ImportWriter.refKey(item.record.trajectory));
      if (id === undefined) errors.push(ImportWriter.missing(item.line, item.record.trajectory));
      else found.push({ ...item, trajectoryId: id });
    }
    return { found, errors };
  }

  async votes(items: ReadonlyArray<Located<JudgeVoteRecord>>): Promise<RecordError[]> {
    if (!items.length) return [];
    const { found, errors } = await this.located(items);
    if (errors.length) return errors;
    const judges = await this.nameIds("judge", found.map((f) => storableText(f.record.judge)));
    // One row per (trajectory, judge): the newest, and on a tie the later line (protocol §2.5).
    const newest = newestPerKey(
      found.map((f) => {
        const votedAt = f.record.created_at ?? this.opts.now;
        return { ...f, judgeId: judges.get(storableText(f.record.judge))!, votedAt, order: votedAt.getTime() };
      }),
      (v) => `${v.trajectoryId}:${v.judgeId}`,
    );
    const rows = newest.map((v) => {
      const parsed = v.record.verdicts ? { status: "GIVEN" as const, verdicts: v.record.verdicts } : parseJudgeAnswer(v.record.raw ?? "");
      if (parsed.status === "UNPARSEABLE") this.counts.unparseable += 1;
      return { ...v, verdicts: parsed.verdicts, status: parsed.status };
    });
    const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
    await this.sql.query(
      `INSERT INTO judge_vote ("trajectoryId", "judgeId", upstream, "localGit", memory, other, overall, "parseStatus", rationale, raw, evidence, "importId", "votedAt", "updatedAt")
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[]::"Verdict"[], $4::text[]::"Verdict"[], $5::text[]::"Verdict"[], $6::text[]::"Verdict"[], $7::text[]::"Verdict"[], $8::text[]::"ParseStatus"[],
         $9::text[], $10::text[], $11::text[]::jsonb[], $12::int[], $13::text[]::timestamp[], $14::text[]::timestamp[])
       ON CONFLICT ("trajectoryId", "judgeId") DO UPDATE SET upstream = EXCLUDED.upstream, "localGit" = EXCLUDED."localGit", memory = EXCLUDED.memory,
         other = EXCLUDED.other, overall = EXCLUDED.overall, "parseStatus" = EXCLUDED."parseStatus", rationale = EXCLUDED.rationale, raw = EXCLUDED.raw,
         evidence = EXCLUDED.evidence, "importId" = EXCLUDED."importId", "votedAt" = EXCLUDED."votedAt", "updatedAt" = EXCLUDED."updatedAt"
       WHERE EXCLUDED."votedAt" >= judge_vote."votedAt"`,
      [col((r) => r.trajectoryId), col((r) => r.judgeId), col((r) => r.verdicts.UPSTREAM), col((r) => r.verdicts.LOCAL_GIT), col((r) => r.verdicts.MEMORY),
        col((r) => r.verdicts.OTHER), col((r) => overallVerdict(r.verdicts)), col((r) => r.status), col((r) => t(r.record.rationale)), col((r) => t(r.record.raw)),
        col((r) => JSON.stringify(storableJson(r.record.evidence))), col(() => this.opts.importId), col((r) => r.votedAt.toISOString()), col(() => this.opts.now.toISOString())],
    );
    for (const r of rows) this.touched.add(r.trajectoryId);
    this.counts.votes += found.length;
    return [];
  }

  /** User ids by handle; an unknown handle becomes an annotator without a login. */
  private async annotatorIds(handles: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(handles)];
    await this.sql.query(
      `INSERT INTO "user" (id, handle, name, role, "updatedAt") SELECT gen_random_uuid()::text, h, h, 'ANNOTATOR', $2 FROM unnest($1::text[]) AS h
       ON CONFLICT (handle) DO NOTHING`,
      [unique, this.opts.now.toISOString()],
    );
    const rows = await this.sql.query<{ id: string; handle: string }>(`SELECT id, handle FROM "user" WHERE handle = ANY($1::text[])`, [unique]);
    return new Map(rows.map((r) => [r.handle, r.id]));
  }

  async labels(items: ReadonlyArray<Located<LabelRecord>>): Promise<RecordError[]> {
    if (!items.length) return [];
    const { found, errors } = await this.located(items);
    if (errors.length) return errors;
    const users = await this.annotatorIds(found.map((f) => storableText(f.record.annotator)));
    for (const f of found) {
      const annotatorId = users.get(storableText(f.record.annotator))!;
      await writeLabel(this.sql, {
        trajectoryId: f.trajectoryId, annotatorId, editorId: null, importId: this.opts.importId,
        verdicts: f.record.verdicts, evidence: storableJson(f.record.evidence), note: t(f.record.note), at: f.record.created_at ?? this.opts.now,
      });
      this.touched.add(f.trajectoryId);
    }
    this.counts.labels += found.length;
    return [];
  }

  /** Returns the connection the search documents were written on; call whatever happened. */
  release(): Promise<void> {
    return this.search.release();
  }

  /** Recomputes the panel columns of every trajectory this writer touched, and commits the search documents. Call once, last. */
  async finish(): Promise<WriteCounts> {
    await refreshDerived(this.sql, [...this.touched]);
    await this.search.finish();
    return this.counts;
  }
}

export type LabelWrite = {
  trajectoryId: number; annotatorId: string; editorId: string | null; importId: number | null; studyId?: number | null;
  verdicts: CategoryVerdicts; evidence: unknown; note: string | null; at: Date;
};

/**
 * Creates or edits an annotator's label on a trajectory, keeping its history: a revision row holds
 * the form before and after. A form older than the stored one is ignored (returns false).
 */
export async function writeLabel(sql: Sql, w: LabelWrite): Promise<boolean> {
  const form = { verdicts: w.verdicts, evidence: w.evidence, note: w.note };
  const [before] = await sql.query<{ id: number; upstream: Verdict; localGit: Verdict; memory: Verdict; other: Verdict; evidence: unknown; note: string | null }>(
    `SELECT id, upstream, "localGit", memory, other, evidence, note FROM label WHERE "trajectoryId" = $1 AND "annotatorId" = $2 FOR UPDATE`,
    [w.trajectoryId, w.annotatorId],
  );
  const [row] = await sql.query<{ id: number }>(
    `INSERT INTO label ("trajectoryId", "annotatorId", "studyId", upstream, "localGit", memory, other, overall, evidence, note, "importId", "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $12)
     ON CONFLICT ("trajectoryId", "annotatorId") DO UPDATE SET "studyId" = COALESCE(EXCLUDED."studyId", label."studyId"), upstream = EXCLUDED.upstream,
       "localGit" = EXCLUDED."localGit", memory = EXCLUDED.memory, other = EXCLUDED.other, overall = EXCLUDED.overall, evidence = EXCLUDED.evidence,
       note = EXCLUDED.note, "importId" = EXCLUDED."importId", "updatedAt" = EXCLUDED."updatedAt"
     WHERE label."updatedAt" <= EXCLUDED."updatedAt"
     RETURNING id`,
    [w.trajectoryId, w.annotatorId, w.studyId ?? null, w.verdicts.UPSTREAM, w.verdicts.LOCAL_GIT, w.verdicts.MEMORY, w.verdicts.OTHER,
      overallVerdict(w.verdicts), JSON.stringify(w.evidence), w.note, w.importId, w.at.toISOString()],
  );
  if (!row) return false;
  const previous = before
    ? { verdicts: voteVerdicts(before), evidence: before.evidence, note: before.note }
    : null;
  await sql.query(`INSERT INTO label_revision ("labelId", "editorId", "createdAt", before, after) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)`,
    [row.id, w.editorId, w.at.toISOString(), previous === null ? null : JSON.stringify(previous), JSON.stringify(form)]);
  return true;
}
