import "server-only";
// The rules' hits kept as rows (table rule_match: each rule version in force, each trajectory, each
// step it fires on), so that the list's rule filters, the rule hits by condition and the Rules page's
// figures read rows instead of scanning every text of the study (at 150,000 trajectories that scan
// outran its one-minute bound). The rows are written by the scan, in short steps:
//
// - a rule version new to the scan reads every trajectory, a chunk a step, in the order of their ids
//   (rule_scan.through: how far it has come);
// - a trajectory an import writes (new, or replaced) is put on rule_scan_pending in the import's own
//   transaction, its entry locked until the import ends; a step takes a chunk of the entries no import
//   holds, deletes whatever matches their trajectories had, scans them with every rule in force and
//   takes them off the list.
//
// Steps run one at a time across every process (an advisory lock; rule versions are written under
// it too), so no two write the same rows, and a step that read a trajectory before an import
// replaced it is always followed by the step that reads it again from the list. A trajectory an
// import has not committed is seen by no step, and is on the list once it is. A step never waits for
// a lock an import holds (it skips what is locked), so the two never wait for each other in a circle.
// Readers are told how many trajectories are not yet read, so a figure from a scan under way says
// so. Each server process watches for hits not yet kept and runs the scan in the background
// (lib/server/rule-watch.ts), as does a reader that finds it behind; a reader waits for it a little
// when little is left (a small study is read at once).
import { LRUCache } from "lru-cache";
import { currentDb, type DbHandle } from "@/lib/db-connect";
import { currentScope, outsideScope } from "@/lib/db-scope";
import { versionKey } from "./data-version";
import { recategorizeEvidence } from "./evidence-categories";
import type { PatternRule } from "./pattern-hits";
import { type Found, hitsWithinLimit, stopRules, writeHits } from "./rule-match-writes";
import { RULES_IN_FORCE, RULES_SCANNED } from "./rule-sql";
import { RULE_SCAN_LOCK } from "./rules";
import { type Sql, statement, transaction } from "./sql";

/** Trajectories a step reads. */
const CHUNK = 200;
/**
 * How long a step's patterns may run: at the paper's scale a step takes 0.1–0.5 s (every rule over
 * 200 trajectories' outputs), so a rule past this runs away. Short, because writing a rule waits for
 * the step under way (the scan's lock): at most this, and as much again for each rule tried alone.
 */
const STEP_LIMIT_MS = 15_000;
/** `through` once a rule's first scan has passed every trajectory: what comes later is on the list. */
const ALL = 2_147_483_647;
/** How long a reader waits for the scan, by default... */
export const READER_WAIT_MS = 3_000;
/** ...when no more trajectories than this are left to read (a few steps); past it, it does not wait. */
const READER_WAITS_FOR = 2_000;
/** After a failed step, how long the scan rests before a reader may start it again. */
const REST_AFTER_FAILURE_MS = 30_000;

/** How far the scan has come: trajectories not yet read by every rule in force, of all of them. */
export type RuleHitsCoverage = { unscanned: number; trajectories: number };
/** ...and the data versions it was read at (rules, trajectories, the kept hits), for a reader's cache. */
export type RuleHitsRead = RuleHitsCoverage & { versions: string };

const COVERAGE_SQL = `
  SELECT (SELECT count(*) FROM trajectory)::int AS trajectories,
    (SELECT count(*) FROM rule_scan_pending)::int AS pending,
    (SELECT coalesce(max((SELECT count(*) FROM trajectory t WHERE t.id > b.through)), 0)
       FROM (SELECT DISTINCT coalesce(s.through, 0) AS through FROM ${RULES_SCANNED} l
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

/**
 * Puts trajectories an import wrote on the scan's list, in the import's transaction. The matches of
 * one it replaced stay until a step reads it again (readers are told it is not yet read); only steps
 * write rule_match, so an import never waits for one on its rows.
 */
export async function markForScan(sql: Sql, ids: readonly number[]): Promise<void> {
  if (ids.length)
    await sql.query(
      // An entry there already is locked all the same (an update that changes nothing), so no step
      // takes it off the list while this import writes the trajectory.
      `INSERT INTO rule_scan_pending ("trajectoryId") SELECT unnest($1::int[])
        ON CONFLICT ("trajectoryId") DO UPDATE SET "trajectoryId" = EXCLUDED."trajectoryId"`,
      [ids],
    );
}

type Step = "more" | "done" | "busy";

/**
 * What a step reads: the rules scanned when it was planned (every one, and those it runs), the
 * trajectories with the versions it read (updatedAt), and how it ends: a listed step takes its
 * trajectories off the list, a behind step moves its rules' place on, a step of one trajectory (a
 * timeline's) takes it off the list if it is there.
 */
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

/**
 * One step of the scan: "more" when it wrote something (or stopped a rule that ran past `limitMs`, or
 * found the rules changed meanwhile), "done" when nothing was left, "busy" when another process holds
 * the scan. Planned, then matched with no transaction held (on the embedded database the patterns
 * run on another thread), then written if what it read is still what is there (decision 48).
 */
export async function scanStep(limitMs = STEP_LIMIT_MS): Promise<Step> {
  const plan = await transaction(async (sql) => {
    if (!(await scanLock(sql))) return "busy" as const;
    // Versions no longer in force (a rule written since) or disabled: their matches go, then their place
    // in the scan. One stopped by its time limit keeps its place, marked, and is read no more.
    const gone = `SELECT s."ruleId" FROM rule_scan s
      WHERE s."ruleId" NOT IN (SELECT id FROM ${RULES_IN_FORCE} r WHERE r.enabled)`;
    const touched = await sql.query<{ id: number }>(
      `WITH d AS (DELETE FROM rule_match WHERE "ruleId" IN (${gone}) RETURNING "trajectoryId")
       SELECT DISTINCT "trajectoryId" AS id FROM d`,
    );
    await sql.query(`DELETE FROM rule_scan WHERE "ruleId" IN (${gone})`);
    await recategorizeEvidence(
      sql,
      touched.map((t) => t.id),
    );
    await sql.query(`INSERT INTO rule_scan ("ruleId") SELECT id FROM ${RULES_SCANNED} r ON CONFLICT DO NOTHING`);
    const rules = await scannedRules(sql);
    return (await listedPlan(sql, rules)) ?? (await behindPlan(sql, rules));
  });
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
    `SELECT r.id, r."on", r.pattern, r."ignoreCase" FROM rule r WHERE r.id IN ${RULES_SCANNED} ORDER BY r.id`,
  );

/**
 * Trajectories on the list, and free: an import writing one holds it (the entry or the row) and puts
 * it on the list again. Nothing here waits for a lock an import holds, so a step and an import never
 * wait for each other in a circle. Null: none.
 */
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

/**
 * Writes what a step found, if what it read is still there: the same rules scanned (else nothing is
 * written and the next step plans again), its trajectories at the versions it read (one changed
 * since is on the list again, and read from there; one an import is writing now ends a behind step
 * before it), a listed one still on the list, a behind one's rules where they stood.
 */
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
  // One read for its timeline ahead of the scan, read again on every view until the scan passes it:
  // written only when its hits differ from those kept, and then the hits' version moves (its
  // readers' caches go by it; a trajectory read off the list moves it by the list's trigger).
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

/**
 * Reads one trajectory with every rule scanned now, within `limitMs` (a timeline's marks): its kept
 * hits are then whole, though the scan has not come to it yet. A rule past the limit is stopped as in
 * a step. Answers whether it was read (not when the scan's lock was held, or the rules changed).
 */
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

/** How long a reader of one trajectory (its timeline) waits for the rules to read it, ahead of the scan. */
export const ONE_READ_LIMIT_MS = 10_000;

/**
 * Reads a trajectory with every rule that has not yet read it, ahead of the scan, so that its kept
 * hits are whole (a timeline's marks, its evidence's categories). Never throws: what fails is logged,
 * and the reader says what is not yet read (unread).
 */
export async function readByTheRules(id: number): Promise<void> {
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

/** Whether some rule scanned has not yet read this trajectory (it is on the list, or a rule is behind it). */
export async function unread(id: number): Promise<boolean> {
  const [row] = await statement<{ unread: boolean }>(
    `SELECT EXISTS (SELECT FROM rule_scan_pending WHERE "trajectoryId" = $1)
         OR EXISTS (SELECT FROM ${RULES_SCANNED} l LEFT JOIN rule_scan s ON s."ruleId" = l.id
                     WHERE coalesce(s.through, 0) < $1) AS unread`,
    [id],
  );
  return row?.unread ?? false;
}

/** Of these trajectories, those no other transaction is writing or deleting, with their versions (by id). */
async function freeOf(sql: Sql, ids: readonly number[]): Promise<Array<{ id: number; at: string }>> {
  if (!ids.length) return [];
  return sql.query<{ id: number; at: string }>(
    `SELECT id, "updatedAt"::text AS at FROM trajectory WHERE id = ANY($1::int[]) ORDER BY id FOR KEY SHARE SKIP LOCKED`,
    [ids],
  );
}

type Runner = { running: Promise<void> | null; failedAt: number };
const runners = new WeakMap<DbHandle, Runner>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the scan until nothing is left, once per process and database at a time (a second call while
 * it runs gets the same promise). Never rejects: a failed step is logged and the scan rests a while.
 * While another process holds the scan it waits for it, up to a minute.
 */
export function scanRuleHits(log: (line: string) => void = console.error): Promise<void> {
  const handle = currentDb();
  let runner = runners.get(handle);
  if (!runner) runners.set(handle, (runner = { running: null, failedAt: -Infinity }));
  if (runner.running) return runner.running;
  if (performance.now() - runner.failedAt < REST_AFTER_FAILURE_MS) return Promise.resolve();
  const r = runner;
  r.running = outsideScope(async () => {
    let waited = 0;
    try {
      for (;;) {
        const step = await scanStep();
        if (step === "done") return;
        if (step === "more") waited = 0;
        else if ((waited += 250) > 60_000) return;
        else await sleep(250);
      }
    } catch (e) {
      r.failedAt = performance.now();
      log(`rule hits: the scan stopped (${e instanceof Error ? e.message : String(e)}); it starts again later`);
    }
  }).finally(() => {
    r.running = null;
  });
  return r.running;
}

/**
 * How far the scan has come. When it is behind, it is started in the background, and a reader waits
 * for it up to `waitMs` when little is left (a small study, a few trajectories imported): then its
 * figures are whole. With more left, it answers at once, and says how many are not yet read. Inside
 * a scope (figures under another panel, in a transaction rolled back) it only reads.
 */
export async function ruleHitsCaughtUp(waitMs = READER_WAIT_MS): Promise<RuleHitsRead> {
  const first = await ruleHitsCoverage();
  if (!first.unscanned || currentScope()) return first;
  if (first.unscanned > READER_WAITS_FOR && waitMs <= READER_WAIT_MS) {
    void scanRuleHits();
    return first;
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([scanRuleHits(), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  return ruleHitsCoverage();
}
