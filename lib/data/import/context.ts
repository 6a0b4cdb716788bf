import "server-only";
// What the writers of one import share: transaction, counts, what to recompute at the end, names looked up.
import type { RecordError } from "@/lib/formats/interchange";
import { refreshDerived, sharePanelLock } from "../derived";
import { refreshEvidence } from "../evidence";
import type { Sql } from "../sql";

export type { RecordError };
export type Located<T> = { line: number; record: T };
export type WriteCounts = {
  trajectories: number;
  replaced: number;
  /** Trajectories brought exactly as they were stored: nothing of them was written. */
  unchanged: number;
  votes: number;
  labels: number;
  /** Gold labels written (a version already stored, re-imported, counts again). */
  gold: number;
  unparseable: number;
  taskRecords: number;
  rules: number;
  categories: number;
};

export class ImportContext {
  readonly counts: WriteCounts = {
    trajectories: 0,
    replaced: 0,
    unchanged: 0,
    votes: 0,
    labels: 0,
    gold: 0,
    unparseable: 0,
    taskRecords: 0,
    rules: 0,
    categories: 0,
  };
  /** Trajectories this import wrote (their turns or patch may have changed): their evidence is recomputed. */
  readonly written = new Set<number>();
  /** Instance ids of the task records this import wrote: their trajectories' evidence is recomputed. */
  readonly taskInstances: string[] = [];
  /** Trajectories whose votes, labels or turns changed. */
  readonly touched = new Set<number>();
  private readonly names = new Map<string, Map<string, number>>();

  constructor(
    readonly sql: Sql,
    readonly importId: number | null,
    readonly now: Date,
    /** How the labels and gold labels it writes were made, unless a record says: through the API, or a file. */
    readonly madeWith: "import" | "api" = "import",
  ) {}

  /** Holds the panel lock shared from the start, so an adoption waits for this import instead of deadlocking. */
  static async begin(sql: Sql, importId: number | null, now: Date): Promise<ImportContext> {
    await sharePanelLock(sql);
    const [row] = importId
      ? await sql.query<{ source: string }>(`SELECT source FROM import WHERE id = $1`, [importId])
      : [];
    return new ImportContext(sql, importId, now, row?.source === "api" ? "api" : "import");
  }

  /** Names whose ids the caller already knows (the judges the app asks). */
  knowNames(table: "benchmark" | "agent_model" | "judge", ids: Iterable<[string, number]>): void {
    const cache = this.names.get(table) ?? new Map<string, number>();
    this.names.set(table, cache);
    for (const [name, id] of ids) cache.set(name, id);
  }

  /** Ids of rows in a name table (benchmark, agent_model, judge), creating the missing ones. */
  async nameIds(table: "benchmark" | "agent_model" | "judge", names: Iterable<string>): Promise<Map<string, number>> {
    const cache = this.names.get(table) ?? new Map<string, number>();
    this.names.set(table, cache);
    const missing = [...new Set(names)].filter((n) => !cache.has(n));
    if (missing.length) {
      await this.sql.query(`INSERT INTO ${table} (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING`, [
        missing,
      ]);
      const rows = await this.sql.query<{ id: number; name: string }>(
        `SELECT id, name FROM ${table} WHERE name = ANY($1::text[])`,
        [missing],
      );
      for (const r of rows) cache.set(r.name, r.id);
    }
    return cache;
  }

  /** Recomputes the panel columns of every trajectory touched, and the evidence of those written. Call once, last. */
  async refreshTouched(): Promise<void> {
    await refreshDerived(this.sql, [...this.touched]);
    await refreshEvidence(this.sql, [...this.written], this.taskInstances);
  }
}
