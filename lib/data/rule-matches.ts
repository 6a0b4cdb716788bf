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
import { currentDb, type DbHandle } from "@/lib/db-connect";
import { currentScope, outsideScope } from "@/lib/db-scope";
import { versionKey } from "./data-version";
import { withinLimit } from "./rule-match-writes";
import { boundScan, RULES_IN_FORCE, RULES_SCANNED } from "./rule-sql";
import { RULE_SCAN_LOCK } from "./rules";
import { type Sql, transaction } from "./sql";

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
 * One step of the scan: "more" when it wrote something (or stopped a rule that ran past `limitMs`),
 * "done" when nothing was left, "busy" when another process holds the scan.
 */
export async function scanStep(limitMs = STEP_LIMIT_MS): Promise<Step> {
  return transaction(async (sql) => {
    const [{ free }] = (await sql.query<{ free: boolean }>(
      `SELECT pg_try_advisory_xact_lock(${RULE_SCAN_LOCK}) AS free`,
    )) as [{ free: boolean }];
    if (!free) return "busy";
    await boundScan(sql, limitMs);
    // A step reads 200 trajectories' texts by their ids. Before the tables have statistics (a study
    // just imported, autovacuum not yet by), the planner may choose to read every text instead: at
    // 150,000 trajectories a step then took 28 s, not 0.1 s.
    await sql.query(`SET LOCAL enable_seqscan = off`);
    // Versions no longer in force (a rule written since) or disabled: their matches go, then their place
    // in the scan. One stopped by its time limit keeps its place, marked, and is read no more.
    const gone = `SELECT s."ruleId" FROM rule_scan s
      WHERE s."ruleId" NOT IN (SELECT id FROM ${RULES_IN_FORCE} r WHERE r.enabled)`;
    await sql.query(`DELETE FROM rule_match WHERE "ruleId" IN (${gone})`);
    await sql.query(`DELETE FROM rule_scan WHERE "ruleId" IN (${gone})`);
    await sql.query(`INSERT INTO rule_scan ("ruleId") SELECT id FROM ${RULES_SCANNED} r ON CONFLICT DO NOTHING`);
    return (await listedStep(sql, limitMs)) ?? (await behindStep(sql, limitMs));
  });
}

/**
 * Trajectories on the list, and free: an import writing one holds it (the entry or the row) and puts
 * it on the list again. Nothing here waits for a lock an import holds, so a step and an import never
 * wait for each other in a circle; the rows kept are locked for the FK checks ahead. Null: none.
 */
async function listedStep(sql: Sql, limitMs: number): Promise<Step | null> {
  const listed = await sql.query<{ id: number }>(
    `SELECT "trajectoryId" AS id FROM rule_scan_pending ORDER BY 1 LIMIT ${CHUNK} FOR UPDATE SKIP LOCKED`,
  );
  const pending = await freeOf(
    sql,
    listed.map((p) => p.id),
  );
  if (!pending.length) return null;
  await sql.query(`DELETE FROM rule_match WHERE "trajectoryId" = ANY($1::int[])`, [pending]);
  const scanned = await sql.query<{ id: number }>(`SELECT id FROM ${RULES_SCANNED} r`);
  const ruleIds = scanned.map((r) => r.id);
  if (await withinLimit(sql, ruleIds, pending, limitMs))
    await sql.query(`DELETE FROM rule_scan_pending WHERE "trajectoryId" = ANY($1::int[])`, [pending]);
  return "more";
}

/** The rules furthest behind, together (they read the same trajectories): their next chunk. */
async function behindStep(sql: Sql, limitMs: number): Promise<Step> {
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
  const writable = new Set(await freeOf(sql, ids));
  const upTo = ids.findIndex((id) => !writable.has(id));
  if (upTo === 0) return "busy";
  const read = upTo === -1 ? ids : ids.slice(0, upTo);
  if (read.length && !(await withinLimit(sql, behind.rules, read, limitMs))) return "more";
  await sql.query(`UPDATE rule_scan SET through = $1 WHERE "ruleId" = ANY($2::int[])`, [
    upTo === -1 && ids.length < CHUNK ? ALL : read.at(-1)!,
    behind.rules,
  ]);
  return "more";
}

/** Of these trajectories, those no other transaction is writing or deleting, locked against it until the step ends. */
async function freeOf(sql: Sql, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await sql.query<{ id: number }>(
    `SELECT id FROM trajectory WHERE id = ANY($1::int[]) ORDER BY id FOR KEY SHARE SKIP LOCKED`,
    [ids],
  );
  return rows.map((r) => r.id);
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
