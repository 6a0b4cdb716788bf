import "server-only";
// Scans of the study by the rules in force: how many trajectories each fires on (the Rules page,
// `rules list`) and which ones (the list's rule and suspect filters). Each under the scan's time limit.
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db";
import type { Category } from "@/lib/domain/verdicts";
import { boundScan, hitsSql } from "./rules";
import { transaction } from "./sql";

/** How many trajectories each rule in force fires on (every rule, enabled or not): a scan of the study. */
export async function rulesFiring(): Promise<Map<string, number>> {
  const rows = await transaction(async (sql) => {
    await boundScan(sql);
    return sql.query<{ name: string; n: number }>(
      `SELECT name, count(DISTINCT id)::int AS n FROM (${hitsSql("true")}) h GROUP BY name`,
    );
  });
  return new Map(rows.map((r) => [r.name, r.n]));
}

/** Fired ids, remembered by what chose them and the data versions (rules and trajectories). */
const firedCache = new LRUCache<string, number[]>({ max: 32 });

/**
 * The trajectories that the enabled rule in force named (or, `category`, any enabled rule in force of
 * that category; "any": of any) fires on: the list's filters.
 */
export async function firedIds(rule?: string, category?: Category | "any"): Promise<number[]> {
  const [v] = await db().$queryRaw<Array<{ versions: string }>>`
    SELECT string_agg(kind || n, ',' ORDER BY kind) AS versions FROM data_version
     WHERE kind IN ('rules', 'trajectories')`;
  const key = JSON.stringify([rule ?? null, category ?? null, v?.versions]);
  const cached = firedCache.get(key);
  if (cached) return cached;
  const chosen = `l.enabled AND ($1::text IS NULL OR l.name = $1)
    AND ($2::text IS NULL OR $2 = 'any' OR l.category = $2)`;
  const rows = await transaction(async (sql) => {
    await boundScan(sql);
    return sql.query<{ id: number }>(`SELECT DISTINCT id FROM (${hitsSql(chosen)}) h`, [
      rule ?? null,
      category ?? null,
    ]);
  });
  const ids = rows.map((r) => r.id);
  firedCache.set(key, ids);
  return ids;
}
