// What the database did in a window of bench-mixed.ts, to tell a stalled window from a quiet one:
// every 100 ms the statements running (pg_stat_activity) by what each waits for ("CPU" when nothing:
// running or waiting for a core), the longest seen of each kind, and around the window the
// checkpoints written and the tallies folded (a fold ends in a VACUUM of its tables). The seconds in
// which a save was slow are then read against what was running in them.
import pg from "pg";
import { TALLY_TABLES } from "@/lib/data/tallies";

type Sample = { at: number; waits: string[] };
type Row = { ms: number; xact_ms: number | null; state: string; wait: string | null; query: string };

export type Watch = {
  checkpoints: number;
  checkpoint_write_ms: number;
  checkpoint_sync_ms: number;
  /** Folds of each kept tally in the window (its tables vacuumed). */
  folds: Record<string, number>;
  /** Samples of running statements by what they waited for, the most first. */
  waits: Record<string, number>;
  /** The longest running statements seen, by their first words: ms. */
  longest: Record<string, number>;
  /** The oldest transaction seen open: ms, its state and its last statement's first words. */
  oldest_transaction: { ms: number; state: string; query: string };
  /** Dead rows in the kept tallies' tables at the window's end (what their VACUUMs left). */
  tally_dead_rows: number;
  /** The seconds (from the window's start) in which a save took over SLOW_MS: saves, and what ran. */
  stalls: Array<{ second: number; slow_saves: number; running: number; waits: Record<string, number> }>;
};

/** A save slower than this marks its second as stalled (the goal is 50 ms at p95). */
export const SLOW_MS = 200;

const STATS = `SELECT
  (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter)::int AS checkpoints,
  (SELECT checkpoint_write_time FROM pg_stat_bgwriter)::float8 AS write_ms,
  (SELECT checkpoint_sync_time FROM pg_stat_bgwriter)::float8 AS sync_ms,
  (SELECT coalesce(sum(vacuum_count), 0) FROM pg_stat_user_tables WHERE relname = 'result_tally')::int AS results,
  (SELECT coalesce(sum(vacuum_count), 0) FROM pg_stat_user_tables WHERE relname = 'agreement_tally')::int AS agreement,
  (SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables WHERE relname = ANY($1::text[]))::int AS dead`;

type Stats = {
  checkpoints: number;
  write_ms: number;
  sync_ms: number;
  results: number;
  agreement: number;
  dead: number;
};

/** The `n` waits most often sampled in `samples`, with how often. */
function topWaits(samples: readonly Sample[], n: number): Record<string, number> {
  const counts = new Map<string, number>();
  for (const s of samples) for (const w of s.waits) counts.set(w, (counts.get(w) ?? 0) + 1);
  return top(counts, n);
}

const top = (counts: Map<string, number>, n: number) =>
  Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, n));

/**
 * Starts watching: `stop` ends it at the window's end, then `figures` reads it against the saves'
 * (end time, ms) pairs.
 */
export async function watchDatabase(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const stats = async () => (await client.query<Stats>(STATS, [TALLY_TABLES])).rows[0]!;
  const before = await stats();
  const started = Date.now();
  const samples: Sample[] = [];
  const longest = new Map<string, number>();
  /** The oldest transaction seen open (it holds back what a VACUUM may remove). */
  let oldest = { ms: 0, state: "", query: "" };
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { rows } = await client.query<Row>(
        `SELECT extract(epoch FROM clock_timestamp() - query_start) * 1000 AS ms,
                extract(epoch FROM clock_timestamp() - xact_start) * 1000 AS xact_ms, state,
                wait_event_type || ': ' || wait_event AS wait,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 48) AS query
           FROM pg_stat_activity
          WHERE state <> 'idle' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      const active = rows.filter((r) => r.state === "active");
      samples.push({ at: Date.now(), waits: active.map((r) => r.wait ?? "CPU") });
      for (const r of active) longest.set(r.query, Math.max(longest.get(r.query) ?? 0, Math.round(r.ms)));
      for (const r of rows)
        if (r.xact_ms !== null && r.xact_ms > oldest.ms)
          oldest = { ms: Math.round(r.xact_ms), state: r.state, query: r.query };
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  let after = before;
  const stop = async () => {
    running = false;
    await sampling;
    after = await stats();
    await client.end();
  };
  const figures = (saves: Array<[number, number]>): Watch => {
    const second = (at: number) => Math.floor((at - started) / 1000);
    const slow = new Map<number, number>();
    for (const [end, ms] of saves) if (ms > SLOW_MS) slow.set(second(end), (slow.get(second(end)) ?? 0) + 1);
    const stalls = [...slow].map(([s, n]) => {
      const inIt = samples.filter((x) => second(x.at) === s);
      const mean = inIt.reduce((sum, x) => sum + x.waits.length, 0) / Math.max(1, inIt.length);
      return { second: s, slow_saves: n, running: +mean.toFixed(1), waits: topWaits(inIt, 3) };
    });
    return {
      checkpoints: after.checkpoints - before.checkpoints,
      checkpoint_write_ms: Math.round(after.write_ms - before.write_ms),
      checkpoint_sync_ms: Math.round(after.sync_ms - before.sync_ms),
      folds: { results: after.results - before.results, agreement: after.agreement - before.agreement },
      waits: topWaits(samples, 8),
      longest: top(longest, 5),
      oldest_transaction: oldest,
      tally_dead_rows: after.dead,
      stalls: stalls.sort((a, b) => a.second - b.second),
    };
  };
  return { stop, figures };
}
