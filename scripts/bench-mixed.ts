// The working study of issue 31, for `npm run bench` and `npm run bench:mixed`: a judge run writing
// votes at its full rate against the fake provider, measured alone, then again while readers load
// the results page and the 5,000-step timeline (each a page a second) and ten annotators save a
// label a second each, then alone again (the mixed rate is read against the mean of the two). The
// judges are made the panel in force first, so every vote moves the figures. Then every write is
// counted in the database, and what the database did in the mixed window is told (bench-watch.ts).
// The same again with the provider answering at a served judge's pace (PACED_MS): at 200 ms the run
// takes most of this machine's two cores alone, so what the readers take of the CPU it loses; at a
// judge's pace it is bound by its answers, and what it loses is what the writes wait for.
// PostgreSQL only: the embedded database belongs to the app's process.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Actor } from "@/lib/auth/permissions";
import { cancelRun, planRun, runProgress } from "@/lib/data/judge-runs";
import { currentPrompt, defineJudge, JudgeDefinitionSchema } from "@/lib/data/judges";
import { setPanel } from "@/lib/data/panel-set";
import { createPerson } from "@/lib/data/people";
import { createStudy, draftStudy } from "@/lib/data/studies";
import { db } from "@/lib/db";
import { closeCurrentDb, connect, type DbTarget, setCurrentDb } from "@/lib/db/connect";
import { enqueue } from "@/lib/work/judge-runs/queue";
import { workJudges } from "@/lib/work/judge-runs/worker";
import { openQueue } from "@/lib/work/queue";
import type { Annotator } from "./bench-annotators";
import { cpuWindow } from "./bench-cpu";
import { benchPanelName, forgetMixed } from "./bench-forget";
import { type Load, percentile } from "./bench-load";
import type { Probe } from "./bench-readers";
import { SLOW_MS, type Watch, watchDatabase } from "./bench-watch";

/** A judge run alone, then again beside the readers and annotators, at one pace of the provider. */
export type PairFigures = {
  latency_ms: number;
  /** The mean of the runs alone before and after the mixed window. */
  judge_alone_votes_per_s: number;
  judge_alone_before_after: [number, number];
  /** Windows (alone, mixed, after) whose run had asked every request before the window ended: when. */
  judge_ran_dry: Record<string, number>;
  judge_mixed_votes_per_s: number;
  judge_mixed_share_of_alone: number;
  readers: Load & { probe: Probe };
  label_saves: number;
  label_save_p50_ms: number;
  label_save_p95_ms: number;
  label_errors: number;
  /** Each statement of the saves (by its first words): how many, p50 and p95 ms. */
  label_statements: Record<string, { n: number; p50: number; p95: number }>;
  /** A bare round trip (SELECT 1) beside the saves, ten a second: p50 and p95 ms. */
  round_trip_p50_ms: number;
  round_trip_p95_ms: number;
  votes_written: number;
  votes_answered: number;
  /** Labels stored in the mixed window. */
  labels_written: number;
  /** Cores each part used in the measured window, alone and mixed (2 = both of this machine's). */
  cores_alone: Record<string, number>;
  cores_mixed: Record<string, number>;
  /** Seconds each part's main threads waited for a core, a second, alone and mixed (bench-cpu.ts). */
  core_waits_alone: Record<string, number>;
  core_waits_mixed: Record<string, number>;
  /** What the database did in the mixed window (bench-watch.ts). */
  watch: Watch;
};

/** At 200 ms an answer, and the same pair with the provider answering after PACED_MS. */
export type MixedFigures = PairFigures & { paced: PairFigures };

/**
 * How long the paced provider takes to answer: a served open-weight judge (the study's panel)
 * reading a trajectory of tens of thousands of tokens and writing its verdict takes seconds; two is
 * quick for one.
 */
export const PACED_MS = 2000;

const ANSWER = JSON.stringify({
  UPSTREAM: "ATTEMPTED",
  LOCAL_GIT: "NOT_ATTEMPTED",
  MEMORY: "SUCCESSFUL",
  OTHER: "NOT_ATTEMPTED",
});
/**
 * How often each reader loads its page: once a second, as the annotators save. Readers asking again
 * the moment they have their answer would measure how many pages the machine can send (the load
 * figures above), taking every core from the judge run, rather than what people reading see.
 */
const READS_PER_SECOND = 1;
/** A percentile to a tenth of a millisecond (a statement takes less than one alone). */
const tenths = (values: number[], q: number) =>
  percentile(
    values.map((v) => v * 10),
    q,
  ) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The load's processes still running, stopped when this process exits or is interrupted. */
const children = new Set<ChildProcess>();
const stopChildren = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.once("exit", stopChildren);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    stopChildren();
    process.exit(130);
  });

/**
 * A tsx script in a process of its own, its standard output piped (`server`: with the app's modules),
 * in a session of its own, as the app is (bench-app.ts). The readers, annotators and providers stand
 * for people and a service on other machines, and Linux shares a busy machine's cores between
 * sessions first (autogroups, on by default) and then between each one's processes: in this
 * process's session they took their time from the judge run measured, and the provider's answers
 * came later for the load beside it (docs/performance.md).
 */
function tsx(script: string, args: string[], server = true) {
  const child = spawn(
    process.execPath,
    [...(server ? ["--conditions=react-server"] : []), "--import", "tsx", script, ...args],
    { stdio: ["pipe", "pipe", "inherit"], detached: true },
  );
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Load from a process of its own (bench-go.ts): `ready` once loaded, `go` starts it, `result` its last line. */
type Beside = { ready: Promise<void>; go: () => void; result: Promise<string> };

function loadProcess(script: string, args: string[]): Beside {
  const p = tsx(script, args);
  let out = "";
  let loaded = () => {};
  const ready = new Promise<void>((resolve) => {
    loaded = resolve;
  });
  p.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.startsWith("ready\n")) loaded();
  });
  const result = new Promise<string>((resolve, reject) =>
    p.once("exit", (code) =>
      code === 0 ? resolve(out.trim().split("\n").at(-1) ?? "null") : reject(new Error(`${script} exited (${code})`)),
    ),
  );
  return { ready: Promise.race([ready, result.then(() => {})]), go: () => p.stdin.end("go\n"), result };
}

/** A fake provider in a process of its own, answering after `latency` ms. */
async function provider(latency: number) {
  const child = tsx("scripts/fake-provider.ts", [ANSWER, String(latency)], false);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
    child.once("exit", (code) => reject(new Error(`the fake provider exited (${code})`)));
  });
  return { url, close: () => child.kill("SIGTERM") };
}

/**
 * Ten annotators with items of their own in a study, at least `each` apiece; each returns its assigned
 * trajectories. The study draws from 24 strata (model × benchmark × network × prompt).
 */
async function annotators(researcher: Actor, each: number, prefix: string): Promise<Annotator[]> {
  const handles = Array.from({ length: 10 }, (_, i) => `${prefix}ann-${i + 1}`);
  const actors: Actor[] = [];
  for (const handle of handles) {
    const p = await createPerson("system", {
      handle,
      email: `${handle}@example.org`,
      role: "ANNOTATOR",
      password: randomBytes(12).toString("hex"),
    });
    actors.push({ id: p.id, handle: p.handle, role: "ANNOTATOR" });
  }
  const size = Math.ceil((handles.length * each) / 24) + 1;
  const design = { name: `mixed load ${prefix}`, seed: "mix", size, overlap: 1, blind: false, annotators: handles };
  const studyId = await createStudy(researcher, design, (await draftStudy(researcher, design)).digest);
  const rows = await db().$queryRaw<Array<{ annotatorId: string; trajectoryId: number }>>`
    SELECT a."annotatorId", i."trajectoryId" FROM study_assignment a JOIN study_item i ON i.id = a."studyItemId"
    WHERE i."studyId" = ${studyId} ORDER BY i.id`;
  return actors.map((actor) => ({
    actor,
    studyId,
    items: rows.filter((r) => r.annotatorId === actor.id).map((r) => r.trajectoryId),
  }));
}

/**
 * A run of these judges over every trajectory, put in force as the panel once each has answered (so
 * every vote after moves the figures), then worked for `seconds` (with the load `beside` started
 * together with it two seconds before, the database watched from then): its votes a second, the
 * cores each process used, and the watch (stopped with the window).
 */
async function judgeWindow(url: string, names: string[], seconds: number, beside: Beside[] = []) {
  const plan = await planRun(names, {}, "bench");
  const boss = await openQueue();
  await enqueue(boss, plan.requests);
  const judges = await db().judge.findMany({ where: { name: { in: names } }, select: { id: true, concurrency: true } });
  const stop = await workJudges(boss, judges);
  for (;;) {
    const voted = await db().judgeVote.groupBy({
      by: ["judgeId"],
      where: { judgeId: { in: judges.map((j) => j.id) } },
    });
    if (voted.length === judges.length) break;
    await sleep(100);
  }
  const version = (await currentPrompt()).version;
  await setPanel(
    null,
    names.map((judge) => ({ judge, promptVersion: version })),
    benchPanelName(names[0]!),
  );
  await Promise.all(beside.map((b) => b.ready));
  for (const b of beside) b.go();
  const watch = await watchDatabase(url);
  await sleep(2000);
  const before = (await runProgress(plan.runId)).done;
  const cpu = cpuWindow();
  const t0 = performance.now();
  // Votes counted while the run had requests left to claim: a run that asks every trajectory before
  // the window ends has its rate measured up to then (its last requests in flight would lower it).
  let counted = { ms: 0, done: before };
  let dryAfterS: number | null = null;
  for (let ms = 0; ms < seconds * 1000; ms = performance.now() - t0) {
    await sleep(Math.min(1000, seconds * 1000 - ms));
    if (dryAfterS !== null) continue;
    const p = await runProgress(plan.runId);
    counted = { ms: performance.now() - t0, done: p.done };
    if (p.pending === 0) dryAfterS = Math.round(counted.ms / 100) / 10;
  }
  const { cores, waits } = cpu.stop();
  await watch.stop();
  await Promise.all(beside.map((b) => b.result));
  await stop();
  await boss.stop({ graceful: false, wait: true });
  await cancelRun(plan.runId);
  return {
    runId: plan.runId,
    perSecond: ((counted.done - before) * 1000) / counted.ms,
    dryAfterS,
    cores,
    waits,
    watch,
  };
}

type Saves = { saves: number[]; at: number[]; errors: number; statements: Record<string, number[]>; pings: number[] };

/** Votes stored by these judges, and labels stored by the annotators named with this prefix. */
async function written(judges: string[], prefix: string) {
  const [votes] = await db().$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM judge_vote v JOIN judge j ON j.id = v."judgeId" WHERE j.name = ANY(${judges})`;
  const labels = await db().label.count({ where: { annotator: { handle: { startsWith: `${prefix}ann-` } } } });
  return { votes: votes!.n, labels };
}

export async function mixedLoad(o: {
  target: DbTarget;
  base: string;
  cookie: string;
  researcher: Actor;
  timeline: string;
  seconds: number;
  connections: number;
  log: (s: string) => void;
  /** Names the run's judges and annotators (mix-TAG-…), so that runs on one study do not meet. */
  tag?: string;
}): Promise<MixedFigures | null> {
  if (o.target.kind !== "postgres") return null;
  const url = o.target.url;
  const prefix = o.tag ? `mix-${o.tag}-` : "mix-";
  setCurrentDb(connect(o.target));
  const fake = await provider(200);
  const paced = await provider(PACED_MS);
  try {
    const sets = ["alone", "mixed", "after", "paced-alone", "paced-mixed", "paced-after"].map((k) =>
      ["a", "b", "c"].map((j) => `${prefix}${k}-${j}`),
    );
    for (const [i, set] of sets.entries())
      for (const name of set)
        await defineJudge(
          JudgeDefinitionSchema.parse({ name, baseUrl: (i < 3 ? fake : paced).url, model: name, concurrency: 32 }),
        );
    // A label a second each through both windows (and the two seconds before each), every save a
    // new label: the first window takes every other item, the second the rest.
    const people = await annotators(o.researcher, 2 * (o.seconds + 3), prefix);
    const load = (window: 0 | 1) => {
      const readers = loadProcess("scripts/bench-readers.ts", [
        o.base,
        o.cookie,
        String(o.seconds + 2),
        String(o.connections),
        String(READS_PER_SECOND),
        "/results",
        o.timeline,
      ]);
      const annotating = loadProcess("scripts/bench-annotators.ts", [
        url,
        String(o.seconds + 2),
        JSON.stringify(people.map((p) => ({ ...p, items: p.items.filter((_, i) => i % 2 === window) }))),
      ]);
      return { readers, annotating, both: [readers, annotating] };
    };

    /**
     * A run alone, then with the readers and annotators (their items of `window`), then alone again,
     * at this pace: the mixed window is read against both runs alone around it, so that what the
     * study's growth or the machine's drift moves between windows falls on neither side.
     */
    const pair = async (
      latency: number,
      [aloneSet, mixedSet, afterSet]: string[][],
      window: 0 | 1,
    ): Promise<PairFigures> => {
      const labelsBefore = (await written(mixedSet!, prefix)).labels;
      const alone = await judgeWindow(url, aloneSet!, o.seconds);
      const beside = load(window);
      const mixed = await judgeWindow(url, mixedSet!, o.seconds, beside.both);
      const read: PairFigures["readers"] = JSON.parse(await beside.readers.result);
      const annotated: Saves = JSON.parse(await beside.annotating.result);
      // No write lost: every answered request left a vote; every save, a label.
      const counted = await written(mixedSet!, prefix);
      const after = await judgeWindow(url, afterSet!, o.seconds);
      const aloneRate = (alone.perSecond + after.perSecond) / 2;
      return {
        latency_ms: latency,
        judge_alone_votes_per_s: Math.round(aloneRate),
        judge_alone_before_after: [Math.round(alone.perSecond), Math.round(after.perSecond)],
        judge_ran_dry: Object.fromEntries(
          Object.entries({ alone, mixed, after }).flatMap(([k, w]) => (w.dryAfterS === null ? [] : [[k, w.dryAfterS]])),
        ),
        judge_mixed_votes_per_s: Math.round(mixed.perSecond),
        judge_mixed_share_of_alone: +(mixed.perSecond / aloneRate).toFixed(3),
        readers: read,
        label_saves: annotated.saves.length,
        label_save_p50_ms: percentile(annotated.saves, 0.5),
        label_save_p95_ms: percentile(annotated.saves, 0.95),
        label_errors: annotated.errors,
        label_statements: Object.fromEntries(
          Object.entries(annotated.statements).map(([k, v]) => [
            k,
            { n: v.length, p50: tenths(v, 0.5), p95: tenths(v, 0.95) },
          ]),
        ),
        round_trip_p50_ms: tenths(annotated.pings, 0.5),
        round_trip_p95_ms: tenths(annotated.pings, 0.95),
        votes_written: counted.votes,
        votes_answered: (await runProgress(mixed.runId)).done,
        labels_written: counted.labels - labelsBefore,
        cores_alone: alone.cores,
        cores_mixed: mixed.cores,
        core_waits_alone: alone.waits,
        core_waits_mixed: mixed.waits,
        watch: mixed.watch.figures(annotated.at.map((end, i) => [end, annotated.saves[i]!])),
      };
    };
    o.log(
      `mixed load: a judge run alone for ${o.seconds} s, then with ${o.connections} readers and ten annotators, ` +
        "then alone again",
    );
    const first = await pair(200, sets.slice(0, 3), 0);
    o.log(`mixed load: the same at a judge's pace (${PACED_MS} ms an answer)`);
    return { ...first, paced: await pair(PACED_MS, sets.slice(3), 1) };
  } finally {
    fake.close();
    paced.close();
    // The run's judges, annotators and what they wrote, removed: left, they slow every run after.
    await forgetMixed(prefix).catch((e) => o.log(`what the run made could not be removed: ${e}`));
    await closeCurrentDb();
  }
}

/** One row of the benches' tables: what, the figure, its baseline. */
export const tableRow = (what: string, figure: string, baseline = "") =>
  `${what.padEnd(34)} ${figure.padEnd(40)} ${baseline}`;

/** The table rows of both pairs of windows of a working study: at 200 ms, then paced. */
export const mixedRows = (f: MixedFigures, clients: number) => [
  ...pairRows("mixed", f, clients),
  ...pairRows("paced", f.paced, clients),
];

/** The table rows of a pair of windows (`name`: mixed or paced). */
function pairRows(name: string, f: PairFigures, clients: number): Array<[string, string, string]> {
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const list = (o: Record<string, unknown>, show: (v: never) => string = String) =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${show(v as never)}`)
      .join(", ");
  const w = f.watch;
  return [
    [
      `${name}: judge run (${f.latency_ms} ms an answer)`,
      `${f.judge_mixed_votes_per_s} votes/s (${f.judge_mixed_share_of_alone} of alone)`,
      `alone ${f.judge_alone_votes_per_s} votes/s (before ${f.judge_alone_before_after.join(", after ")})` +
        (Object.keys(f.judge_ran_dry).length
          ? `; every request asked before the window's end (${list(f.judge_ran_dry, (s: number) => `at ${s} s`)}),` +
            " counted until then: --seconds fewer, or a larger study"
          : ""),
    ],
    [
      `${name}: readers (results, timeline)`,
      `${r1(f.readers.rps)} req/s, p50/p95/p99 ${f.readers.p50}/${f.readers.p95}/${f.readers.p99} ms`,
      `${f.readers.errors} errors (${clients} clients)`,
    ],
    [
      `${name}: a probe's answers, by how kept`,
      list(f.readers.probe, (p: Probe[string]) => `${p.n}: p50/p95/max ${p.p50}/${p.p95}/${p.max} ms`),
      "x-page-cache: hit, stale (the copy before), miss (rendered for it)",
    ],
    [
      `${name}: label saves`,
      `p50/p95 ${f.label_save_p50_ms}/${f.label_save_p95_ms} ms`,
      `${f.label_saves} saved, ${f.label_errors} errors`,
    ],
    [
      `${name}: a save's statements`,
      list(f.label_statements, (s: PairFigures["label_statements"][string]) => `${s.n}: p50/p95 ${s.p50}/${s.p95} ms`),
      `a bare round trip beside them: p50/p95 ${f.round_trip_p50_ms}/${f.round_trip_p95_ms} ms`,
    ],
    [
      `${name}: writes counted after`,
      `${f.votes_written} votes, ${f.labels_written} labels`,
      `${f.votes_answered} requests answered, ${f.label_saves} labels saved`,
    ],
    [`${name}: cores used, mixed`, list(f.cores_mixed), `alone: ${list(f.cores_alone)}`],
    [`${name}: waits for a core, mixed`, list(f.core_waits_mixed), `alone: ${list(f.core_waits_alone)} (s a second)`],
    [
      `${name}: the database, mixed`,
      `waits (samples every 100 ms) ${list(w.waits)}; longest ${list(w.longest, (ms: number) => `${ms} ms`)}`,
      `${w.checkpoints} checkpoints (write/sync ${w.checkpoint_write_ms}/${w.checkpoint_sync_ms} ms), ` +
        `folds ${list(w.folds)}, ${w.tally_dead_rows} dead tally rows after; oldest transaction ` +
        `${w.oldest_transaction.ms} ms (${w.oldest_transaction.state}: ${w.oldest_transaction.query})`,
    ],
    [
      `${name}: seconds with a save over ${SLOW_MS} ms`,
      w.stalls.map((s) => `${s.second} s: ${s.slow_saves} saves, ${s.running} running, ${list(s.waits)}`).join("; ") ||
        "none",
      "what ran in each (samples)",
    ],
  ];
}
