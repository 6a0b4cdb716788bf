import "server-only";
// The rules' hits kept as rows, written by a scan in short steps (decision 40); imports list what they wrote.
import { LRUCache } from "lru-cache";
import { currentDb, type DbHandle } from "@/lib/db/connect";
import { currentScope } from "@/lib/db/scope";
import { versionKey } from "./data-version";
import { scanTrajectory, unread } from "./rule-scan-step";

import { type Sql, transaction } from "./sql";

/** How far the scan has come: trajectories not yet read by every rule in force, of all of them. */
export type RuleHitsCoverage = { unscanned: number; trajectories: number };
/** ...and the data versions it was read at (rules, trajectories, the kept hits), for a reader's cache. */
export type RuleHitsRead = RuleHitsCoverage & { versions: string };

const COVERAGE_SQL = `
  SELECT (SELECT count(*) FROM trajectory)::int AS trajectories,
    (SELECT count(*) FROM rule_scan_pending)::int AS pending,
    (SELECT coalesce(max((SELECT count(*) FROM trajectory t WHERE t.id > b.through)), 0)
       FROM (SELECT DISTINCT coalesce(s.through, 0) AS through FROM rules_scanned() l
               LEFT JOIN rule_scan s ON s."ruleId" = l.id) b)::int AS behind`;

export async function coverageIn(sql: Sql): Promise<RuleHitsCoverage> {
  const [c] = await sql.query<{ trajectories: number; pending: number; behind: number }>(COVERAGE_SQL);
  return { trajectories: c!.trajectories, unscanned: Math.min(c!.trajectories, c!.pending + c!.behind) };
}

/** The last coverage read, by the data versions it was read at (rules, trajectories, the kept hits). */
const coverageSeen = new WeakMap<DbHandle, RuleHitsRead>();

/** How far the scan has come: counted again only when the rules, the trajectories or the kept hits moved. */
export async function ruleHitsCoverage(): Promise<RuleHitsRead> {
  return transaction(async (sql) => {
    const versions = await versionKey(["rules", "trajectories", "rule_hits"], (text, kinds) =>
      sql.query(text, [kinds]),
    );
    const seen = coverageSeen.get(currentDb());
    if (seen?.versions === versions && !currentScope()) return seen;
    const read = { ...(await coverageIn(sql)), versions };
    if (!currentScope()) coverageSeen.set(currentDb(), read);
    return read;
  });
}

/** Lists what an import wrote for the scan, in its transaction; only steps write rule_match. */
export async function markForScan(sql: Sql, ids: readonly number[]): Promise<void> {
  if (ids.length)
    await sql.query(
      // An entry there already is locked too, so no step takes it off the list during this import.
      `INSERT INTO rule_scan_pending ("trajectoryId") SELECT unnest($1::int[])
        ON CONFLICT ("trajectoryId") DO UPDATE SET "trajectoryId" = EXCLUDED."trajectoryId"`,
      [ids],
    );
}

/** How long a reader of one trajectory (its timeline) waits for the rules to read it, ahead of the scan. */
export const ONE_READ_LIMIT_MS = 10_000;

/** Reads a trajectory with every rule that has not, ahead of the scan (a timeline's marks). Never throws. */
export function readByTheRules(id: number): Promise<void> {
  // A timeline's marks and its evidence ask at once: one reading serves both.
  const running = reading.get(id);
  if (running) return running;
  const read = readOnce(id).finally(() => reading.delete(id));
  reading.set(id, read);
  return read;
}

/** Readings under way, by trajectory (this process). */
const reading = new Map<number, Promise<void>>();

async function readOnce(id: number): Promise<void> {
  if (!(await unread(id))) {
    notRead.delete(id);
    return;
  }
  const read = await scanTrajectory(id, ONE_READ_LIMIT_MS).catch((e: unknown) => {
    console.warn(`the rules' reading of trajectory ${id}: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  });
  if (read) notRead.delete(id);
  else notRead.set(id, true);
}

/** Trajectories whose last reading ahead of the scan failed (its readers say so). */
const notRead = new LRUCache<number, true>({ max: 10_000 });

/** Whether the last reading of this trajectory ahead of the scan failed (readByTheRules). */
export const readFailed = (id: number) => notRead.has(id);
