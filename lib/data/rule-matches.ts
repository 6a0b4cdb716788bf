import "server-only";
// The rules' hits kept as rows (table rule_match: each rule version in force, each trajectory, each
// step it fires on), so that the list's rule filters, the rule hits by condition and the Rules page's
// figures read rows instead of scanning every text of the study (at 150,000 trajectories that scan
// outran its one-minute bound). The rows are written by the scan, in short steps:
//
// - a rule version new to the scan reads every trajectory, a chunk a step, in the order of their ids
//   (rule_scan.through: how far it has come);
// - a trajectory an import writes (new, or replaced) is put on rule_scan_pending in the import's own
//   transaction; a step takes a chunk of them, deletes whatever matches they had and scans them with
//   every rule in force, then takes them off the list (only the entries it read: an import that wrote
//   one again meanwhile gave it a new `version`, so it stays on the list and is read again).
//
// Steps run one at a time across every process (an advisory lock), so no two write the same rows
// and a step that read a trajectory before an import replaced it is always followed by the step that
// reads it again from the list. A trajectory an import has not committed is not seen by any step,
// and is on the list once it is. Readers are told how many trajectories are not yet scanned, so a
// figure from a scan under way says so. Each process runs the scan in the background when it starts
// and whenever a reader finds it behind; a reader waits for it a little (a small study is scanned at
// once), never longer.
import { currentDb, type DbHandle } from "@/lib/db-connect";
import { currentScope, outsideScope } from "@/lib/db-scope";
import { boundScan, hitsSql, RULE_SCAN_LOCK, RULES_IN_FORCE } from "./rules";
import { type Sql, transaction } from "./sql";

/** Trajectories a step reads. */
const CHUNK = 200;
/** `through` once a rule's first scan has passed every trajectory: what comes later is on the list. */
const ALL = 2_147_483_647;
/** How long a reader waits for the scan, by default. */
export const READER_WAIT_MS = 3_000;
/** After a failed step, how long the scan rests before a reader may start it again. */
const REST_AFTER_FAILURE_MS = 30_000;

/** How far the scan has come: trajectories not yet read by every rule in force, of all of them. */
export type RuleHitsCoverage = { unscanned: number; trajectories: number };

const COVERAGE_SQL = `
  SELECT (SELECT count(*) FROM trajectory)::int AS trajectories,
    (SELECT count(*) FROM rule_scan_pending)::int AS pending,
    (SELECT coalesce(max((SELECT count(*) FROM trajectory t WHERE t.id > b.through)), 0)
       FROM (SELECT DISTINCT coalesce(s.through, 0) AS through FROM ${RULES_IN_FORCE} l
               LEFT JOIN rule_scan s ON s."ruleId" = l.id) b)::int AS behind`;

export async function coverageIn(sql: Sql): Promise<RuleHitsCoverage> {
  const [c] = await sql.query<{ trajectories: number; pending: number; behind: number }>(COVERAGE_SQL);
  return { trajectories: c!.trajectories, unscanned: Math.min(c!.trajectories, c!.pending + c!.behind) };
}

export const ruleHitsCoverage = (): Promise<RuleHitsCoverage> => transaction(coverageIn);

/**
 * Marks trajectories an import wrote as waiting for the scan, in the import's transaction; the
 * matches of those it replaced go at once (their texts are gone).
 */
export async function markForScan(sql: Sql, ids: readonly number[], replaced: readonly number[]): Promise<void> {
  if (replaced.length) await sql.query(`DELETE FROM rule_match WHERE "trajectoryId" = ANY($1::int[])`, [replaced]);
  if (ids.length)
    await sql.query(
      `INSERT INTO rule_scan_pending ("trajectoryId") SELECT unnest($1::int[])
        ON CONFLICT ("trajectoryId") DO UPDATE SET version = EXCLUDED.version`,
      [ids],
    );
}

const insertMatches = (chosen: string) =>
  `INSERT INTO rule_match ("ruleId", "trajectoryId", step)
   SELECT DISTINCT "ruleId", id, step FROM (${hitsSql(chosen)}) h ON CONFLICT DO NOTHING`;

type Step = "more" | "done" | "busy";

/**
 * One step of the scan: "more" when it wrote something, "done" when nothing was left, "busy" when
 * another process holds the scan.
 */
export async function scanStep(): Promise<Step> {
  return transaction(async (sql) => {
    const [{ free }] = (await sql.query<{ free: boolean }>(
      `SELECT pg_try_advisory_xact_lock(${RULE_SCAN_LOCK}) AS free`,
    )) as [{ free: boolean }];
    if (!free) return "busy";
    await boundScan(sql);
    // Versions no longer in force (a rule written since): their matches go, then their place in the scan.
    const gone = `SELECT s."ruleId" FROM rule_scan s WHERE s."ruleId" NOT IN (SELECT id FROM ${RULES_IN_FORCE} r)`;
    await sql.query(`DELETE FROM rule_match WHERE "ruleId" IN (${gone})`);
    await sql.query(`DELETE FROM rule_scan WHERE "ruleId" IN (${gone})`);
    await sql.query(`INSERT INTO rule_scan ("ruleId") SELECT id FROM ${RULES_IN_FORCE} r ON CONFLICT DO NOTHING`);

    const pending = await sql.query<{ id: number; version: string }>(
      `SELECT "trajectoryId" AS id, version::text FROM rule_scan_pending ORDER BY "trajectoryId" LIMIT ${CHUNK}`,
    );
    if (pending.length) {
      const ids = pending.map((p) => p.id);
      await sql.query(`DELETE FROM rule_match WHERE "trajectoryId" = ANY($1::int[])`, [ids]);
      await sql.query(insertMatches(`x."trajectoryId" = ANY($1::int[])`), [ids]);
      await sql.query(
        `DELETE FROM rule_scan_pending p USING unnest($1::int[], $2::bigint[]) AS r(id, version)
          WHERE p."trajectoryId" = r.id AND p.version = r.version`,
        [ids, pending.map((p) => p.version)],
      );
      return "more";
    }

    // The rules furthest behind, together: they read the same trajectories.
    const [behind] = await sql.query<{ through: number; rules: number[] }>(
      `SELECT s.through, array_agg(s."ruleId" ORDER BY s."ruleId") AS rules FROM rule_scan s
        WHERE s.through < ${ALL} GROUP BY 1 ORDER BY 1 LIMIT 1`,
    );
    if (!behind) return "done";
    const next = await sql.query<{ id: number }>(`SELECT id FROM trajectory WHERE id > $1 ORDER BY id LIMIT ${CHUNK}`, [
      behind.through,
    ]);
    const ids = next.map((t) => t.id);
    if (ids.length)
      await sql.query(insertMatches(`l.id = ANY($1::int[]) AND x."trajectoryId" = ANY($2::int[])`), [
        behind.rules,
        ids,
      ]);
    await sql.query(`UPDATE rule_scan SET through = $1 WHERE "ruleId" = ANY($2::int[])`, [
      ids.length === CHUNK ? ids.at(-1)! : ALL,
      behind.rules,
    ]);
    return "more";
  });
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
 * How far the scan has come, after waiting for it up to `waitMs` when it is behind (and starting it
 * in the background). Inside a scope (figures under another panel, in a transaction rolled back)
 * it only reads.
 */
export async function ruleHitsCaughtUp(waitMs = READER_WAIT_MS): Promise<RuleHitsCoverage> {
  const first = await ruleHitsCoverage();
  if (!first.unscanned || currentScope()) return first;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([scanRuleHits(), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  return ruleHitsCoverage();
}
