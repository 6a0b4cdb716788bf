import "server-only";
// A step of the rules' scan: planned and written under its lock, matched with nothing held (decision 48).
import { recategorizeEvidence } from "./evidence-categories";
import type { PatternRule } from "./pattern-hits";
import { carryHits, type Found, hitsWithinLimit, stopRules, writeHits } from "./rule-match-writes";

import { RULE_SCAN_LOCK } from "./rules";
import { type Sql, statement, transaction } from "./sql";

/** Trajectories a step reads. */
const CHUNK = 200;
/** A step's patterns' limit: a step takes 0.1–0.5 s at the paper's scale, so a rule past this runs away. */
const STEP_LIMIT_MS = 15_000;
/** `through` once a rule's first scan has passed every trajectory: what comes later is on the list. */
const ALL = 2_147_483_647;

export type Step = "more" | "done" | "busy";

/** What a step read (rules, trajectories at their versions) and how it ends: listed, behind, or one trajectory. */
type Plan = {
  kind: "listed" | "behind" | "one";
  scanned: number[];
  rules: PatternRule[];
  ids: number[];
  versions: string[];
  /** A behind step: where its rules stand, and where they stand after it when it reads every one. */
  through?: number;
  next?: number;
};

/** One step: "more" when it wrote (or stopped a rule, or found the rules changed), "done", or "busy" elsewhere. */
export async function scanStep(limitMs = STEP_LIMIT_MS): Promise<Step> {
  const plan = await transaction(async (sql) => {
    if (!(await scanLock(sql))) return "busy" as const;
    // A new version that reads as the one before it takes that one's hits, before they go below.
    if (await carryHits(sql)) return "carried" as const;
    // Versions out of force or disabled lose their matches and place; one stopped by its limit stays marked.
    const gone = `SELECT s."ruleId" FROM rule_scan s
      WHERE s."ruleId" NOT IN (SELECT id FROM rules_in_force() r WHERE r.enabled)`;
    const touched = await sql.query<{ id: number }>(
      `WITH d AS (DELETE FROM rule_match WHERE "ruleId" IN (${gone}) RETURNING "trajectoryId")
       SELECT DISTINCT "trajectoryId" AS id FROM d`,
    );
    await sql.query(`DELETE FROM rule_scan WHERE "ruleId" IN (${gone})`);
    await recategorizeEvidence(
      sql,
      touched.map((t) => t.id),
    );
    await sql.query(`INSERT INTO rule_scan ("ruleId") SELECT id FROM rules_scanned() ON CONFLICT DO NOTHING`);
    const rules = await scannedRules(sql);
    return (await listedPlan(sql, rules)) ?? (await behindPlan(sql, rules));
  });
  if (plan === "carried") return "more";
  if (typeof plan === "string") return plan;
  const found = await hitsWithinLimit(plan.rules, plan.ids, limitMs);
  return transaction((sql) => applyStep(sql, plan, found, limitMs));
}

const scanLock = async (sql: Sql) =>
  (
    (await sql.query<{ free: boolean }>(`SELECT pg_try_advisory_xact_lock(${RULE_SCAN_LOCK}) AS free`)) as [
      { free: boolean },
    ]
  )[0].free;

const scannedRules = (sql: Sql) =>
  sql.query<PatternRule>(
    `SELECT r.id, r."on", r.pattern, r."ignoreCase" FROM rule r
      WHERE r.id IN (SELECT id FROM rules_scanned()) ORDER BY r.id`,
  );

/** Listed trajectories no import holds (so a step never waits for an import), or null for none. */
async function listedPlan(sql: Sql, rules: PatternRule[]): Promise<Plan | null> {
  const listed = await sql.query<{ id: number }>(
    `SELECT "trajectoryId" AS id FROM rule_scan_pending ORDER BY 1 LIMIT ${CHUNK} FOR UPDATE SKIP LOCKED`,
  );
  const free = await freeOf(
    sql,
    listed.map((p) => p.id),
  );
  if (!free.length) return null;
  const scanned = rules.map((r) => r.id);
  return { kind: "listed", scanned, rules, ids: free.map((t) => t.id), versions: free.map((t) => t.at) };
}

/** The rules furthest behind, together (they read the same trajectories): their next chunk. */
async function behindPlan(sql: Sql, rules: PatternRule[]): Promise<Plan | "done" | "busy"> {
  const [behind] = await sql.query<{ through: number; rules: number[] }>(
    `SELECT s.through, array_agg(s."ruleId" ORDER BY s."ruleId") AS rules FROM rule_scan s
      WHERE s.through < ${ALL} AND s.failure IS NULL GROUP BY 1 ORDER BY 1 LIMIT 1`,
  );
  if (!behind) return "done";
  const next = await sql.query<{ id: number }>(`SELECT id FROM trajectory WHERE id > $1 ORDER BY id LIMIT ${CHUNK}`, [
    behind.through,
  ]);
  const ids = next.map((t) => t.id);
  // Up to the first trajectory an import is writing (it waits for that import to end).
  const free = await freeOf(sql, ids);
  const upTo = ids.findIndex((id, i) => free[i]?.id !== id);
  if (upTo === 0) return "busy";
  const read = upTo === -1 ? free : free.slice(0, upTo);
  const mine = new Set(behind.rules);
  return {
    kind: "behind",
    scanned: rules.map((r) => r.id),
    rules: rules.filter((r) => mine.has(r.id)),
    ids: read.map((t) => t.id),
    versions: read.map((t) => t.at),
    through: behind.through,
    next: upTo === -1 && ids.length < CHUNK ? ALL : read.at(-1)!.id,
  };
}

/** Writes a step's hits if what it read is still there; otherwise nothing, and the next step plans again. */
async function applyStep(sql: Sql, plan: Plan, found: Found, limitMs: number): Promise<Step> {
  if (!(await scanLock(sql))) return "busy";
  const scanned = (await scannedRules(sql)).map((r) => r.id);
  if (scanned.join() !== plan.scanned.join()) return "more";
  if (found.slow.length) {
    await stopRules(sql, found.slow, plan.ids, limitMs);
    return "more";
  }
  const locked = await sql.query<{ id: number; at: string }>(
    `SELECT t.id, t."updatedAt"::text AS at FROM trajectory t WHERE t.id = ANY($1::int[])
      ORDER BY t.id FOR KEY SHARE SKIP LOCKED`,
    [plan.ids],
  );
  const now = new Map(locked.map((t) => [t.id, t.at]));
  const same = plan.ids.filter((id, i) => now.get(id) === plan.versions[i]);
  if (plan.kind === "behind") {
    const [{ standing }] = (await sql.query<{ standing: number }>(
      `SELECT count(*)::int AS standing FROM rule_scan
        WHERE "ruleId" = ANY($1::int[]) AND through = $2 AND failure IS NULL`,
      [plan.rules.map((r) => r.id), plan.through],
    )) as [{ standing: number }];
    if (standing !== plan.rules.length) return "more";
    // Still there but held by an import: the rules stop before it (gone since: passed over).
    const present = new Set(
      (await sql.query<{ id: number }>(`SELECT id FROM trajectory WHERE id = ANY($1::int[])`, [plan.ids])).map(
        (t) => t.id,
      ),
    );
    const held = plan.ids.findIndex((id) => present.has(id) && !now.has(id));
    if (held === 0) return "busy";
    const upTo = held === -1 ? plan.ids.length : held;
    const read = same.filter((id) => plan.ids.indexOf(id) < upTo);
    await writeHits(sql, found.hits, read);
    await sql.query(`UPDATE rule_scan SET through = $1 WHERE "ruleId" = ANY($2::int[])`, [
      held === -1 ? plan.next : plan.ids[held - 1],
      plan.rules.map((r) => r.id),
    ]);
    return "more";
  }
  const listed = await sql.query<{ id: number }>(
    `SELECT "trajectoryId" AS id FROM rule_scan_pending WHERE "trajectoryId" = ANY($1::int[])
      FOR UPDATE SKIP LOCKED`,
    [same],
  );
  const read = plan.kind === "listed" ? listed.map((t) => t.id) : same;
  await sql.query(`DELETE FROM rule_scan_pending WHERE "trajectoryId" = ANY($1::int[])`, [
    listed.map((t) => t.id).filter((id) => read.includes(id)),
  ]);
  // A timeline's read is written only when its hits differ from those kept (the hits' version moves then).
  if (plan.kind === "one" && (!read.length || (await keptAlready(sql, read[0]!, found)))) return "more";
  await sql.query(`DELETE FROM rule_match WHERE "trajectoryId" = ANY($1::int[])`, [read]);
  await writeHits(sql, found.hits, read);
  if (plan.kind === "one") await sql.query(`UPDATE data_version SET n = n + 1 WHERE kind = 'rule_hits'`);
  return "more";
}

/** Whether the hits kept of trajectory `id` are exactly those found. */
async function keptAlready(sql: Sql, id: number, found: Found): Promise<boolean> {
  const kept = await sql.query<{ ruleId: number; step: number }>(
    `SELECT "ruleId", step FROM rule_match WHERE "trajectoryId" = $1`,
    [id],
  );
  const key = (h: { ruleId: number; step: number }) => `${h.ruleId}:${h.step}`;
  const now = new Set(found.hits.filter((h) => h.trajectoryId === id).map(key));
  return kept.length === now.size && kept.every((h) => now.has(key(h)));
}

/** Reads one trajectory with every rule scanned now, within `limitMs`; answers whether it was read. */
export async function scanTrajectory(id: number, limitMs: number): Promise<boolean> {
  const plan = await transaction(async (sql) => {
    const rules = await scannedRules(sql);
    const free = await freeOf(sql, [id]);
    if (!free.length) return null;
    return { kind: "one", scanned: rules.map((r) => r.id), rules, ids: [id], versions: [free[0]!.at] } as Plan;
  });
  if (!plan) return false;
  const found = await hitsWithinLimit(plan.rules, plan.ids, limitMs);
  return (await transaction((sql) => applyStep(sql, plan, found, limitMs))) === "more";
}

/** Whether some rule scanned has not yet read this trajectory (it is on the list, or a rule is behind it). */
export async function unread(id: number): Promise<boolean> {
  const [row] = await statement<{ unread: boolean }>(
    `SELECT EXISTS (SELECT FROM rule_scan_pending WHERE "trajectoryId" = $1)
         OR EXISTS (SELECT FROM rules_scanned() l LEFT JOIN rule_scan s ON s."ruleId" = l.id
                     WHERE coalesce(s.through, 0) < $1) AS unread`,
    [id],
  );
  return row?.unread ?? false;
}

/** Of these trajectories, those no other transaction is writing or deleting, with their versions (by id). */
async function freeOf(sql: Sql, ids: readonly number[]): Promise<Array<{ id: number; at: string }>> {
  if (!ids.length) return [];
  return sql.query<{ id: number; at: string }>(
    `SELECT id, "updatedAt"::text AS at FROM trajectory WHERE id = ANY($1::int[])
      ORDER BY id FOR KEY SHARE SKIP LOCKED`,
    [ids],
  );
}
