// The working study of issue 31, for `npm run bench`: a judge run writing votes at its full rate
// against the fake provider, measured alone, then again while readers load the results page and
// the 5,000-step timeline (each a page a second) and ten annotators save a label a second each. The
// judges are made the panel in force first, so every vote moves the figures. Then every write is
// counted in the database. The same pair again with the provider answering at a served judge's pace
// (PACED_MS): at 200 ms the run takes most of this machine's two cores alone, so what the readers
// take of the CPU it loses; at a judge's pace it is bound by its answers, and what it loses is what
// the writes wait for. PostgreSQL only: the embedded database belongs to the app's process.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Actor } from "@/lib/auth/permissions";
import { cancelRun, planRun, runProgress } from "@/lib/data/judge-runs";
import { currentPrompt, defineJudge, JudgeDefinitionSchema } from "@/lib/data/judges";
import { setPanel } from "@/lib/data/panel-set";
import { createPerson } from "@/lib/data/people";
import { createStudy, draftStudy } from "@/lib/data/studies";
import { db } from "@/lib/db";
import { closeCurrentDb, connect, type DbTarget, setCurrentDb } from "@/lib/db-connect";
import { enqueue, openQueue } from "@/lib/judges/queue";
import { workJudges } from "@/lib/judges/worker";
import type { Annotator } from "./bench-annotators";
import { cpuWindow } from "./bench-cpu";
import { type Load, percentile } from "./bench-load";
import type { Probe } from "./bench-readers";

export type MixedFigures = {
  judge_alone_votes_per_s: number;
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
  labels_written: number;
  /** Cores each part used in the measured window, alone and mixed (2 = both of this machine's). */
  cores_alone: Record<string, number>;
  cores_mixed: Record<string, number>;
  /** The same pair with the provider answering after PACED_MS. */
  paced: Paced;
};

/** A judge run at a served judge's pace, alone and beside the same readers and annotators. */
export type Paced = {
  latency_ms: number;
  judge_alone_votes_per_s: number;
  judge_mixed_votes_per_s: number;
  judge_mixed_share_of_alone: number;
  readers_p95_ms: number;
  label_save_p95_ms: number;
  votes_written: number;
  votes_answered: number;
  labels_written: number;
  label_saves: number;
  cores_alone: Record<string, number>;
  cores_mixed: Record<string, number>;
};

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

/** A tsx script in a process of its own, its standard output piped (`server`: with the app's modules). */
const tsx = (script: string, args: string[], server = true) =>
  spawn(process.execPath, [...(server ? ["--conditions=react-server"] : []), "--import", "tsx", script, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });

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
async function annotators(researcher: Actor, each: number): Promise<Annotator[]> {
  const handles = Array.from({ length: 10 }, (_, i) => `mix-ann-${i + 1}`);
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
  const design = { name: "mixed load", seed: "mix", size, overlap: 1, blind: false, annotators: handles };
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
 * together with it two seconds before): its votes a second and the cores each process used.
 */
async function judgeWindow(names: string[], seconds: number, beside: Beside[] = []) {
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
    `mixed ${names[0]}`,
  );
  await Promise.all(beside.map((b) => b.ready));
  for (const b of beside) b.go();
  await sleep(2000);
  const before = (await runProgress(plan.runId)).done;
  const cpu = cpuWindow();
  await sleep(seconds * 1000);
  const after = (await runProgress(plan.runId)).done;
  const cores = cpu.stop();
  await Promise.all(beside.map((b) => b.result));
  await stop();
  await boss.stop({ graceful: false, wait: true });
  await cancelRun(plan.runId);
  return { runId: plan.runId, perSecond: (after - before) / seconds, cores };
}

type Saves = { saves: number[]; errors: number; statements: Record<string, number[]>; pings: number[] };

/** Votes stored by the judges named with this prefix, and labels stored by the bench's annotators. */
async function written(judgePrefix: string) {
  const [votes] = await db().$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM judge_vote v JOIN judge j ON j.id = v."judgeId"
     WHERE j.name LIKE ${`${judgePrefix}%`}`;
  const labels = await db().label.count({ where: { annotator: { handle: { startsWith: "mix-ann-" } } } });
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
}): Promise<MixedFigures | null> {
  if (o.target.kind !== "postgres") return null;
  const url = o.target.url;
  setCurrentDb(connect(o.target));
  const fake = await provider(200);
  const paced = await provider(PACED_MS);
  try {
    const sets = ["alone", "mixed", "paced-alone", "paced-mixed"].map((k) =>
      ["a", "b", "c"].map((j) => `mix-${k}-${j}`),
    );
    for (const [i, set] of sets.entries())
      for (const name of set)
        await defineJudge(
          JudgeDefinitionSchema.parse({ name, baseUrl: (i < 2 ? fake : paced).url, model: name, concurrency: 32 }),
        );
    // A label a second each through both windows (and the two seconds before each), every save a
    // new label: the first window takes every other item, the second the rest.
    const people = await annotators(o.researcher, 2 * (o.seconds + 3));
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

    o.log(`mixed load: a judge run alone for ${o.seconds} s`);
    const alone = await judgeWindow(sets[0]!, o.seconds);
    o.log(`mixed load: the run again, with ${o.connections} readers and ten annotators`);
    const first = load(0);
    const mixed = await judgeWindow(sets[1]!, o.seconds, first.both);
    const read: MixedFigures["readers"] = JSON.parse(await first.readers.result);
    const annotated: Saves = JSON.parse(await first.annotating.result);
    // No write lost: every answered request left a vote; every save, a label.
    const counted = await written("mix-mixed-");
    const answered = (await runProgress(mixed.runId)).done;

    o.log(`mixed load: a run at a judge's pace (${PACED_MS} ms an answer), alone, then with the readers`);
    const pacedAlone = await judgeWindow(sets[2]!, o.seconds);
    const second = load(1);
    const pacedMixed = await judgeWindow(sets[3]!, o.seconds, second.both);
    const pacedRead: Load = JSON.parse(await second.readers.result);
    const pacedSaves: Saves = JSON.parse(await second.annotating.result);
    const pacedCounted = await written("mix-paced-mixed-");
    return {
      judge_alone_votes_per_s: Math.round(alone.perSecond),
      judge_mixed_votes_per_s: Math.round(mixed.perSecond),
      judge_mixed_share_of_alone: +(mixed.perSecond / alone.perSecond).toFixed(3),
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
      votes_answered: answered,
      labels_written: counted.labels,
      cores_alone: alone.cores,
      cores_mixed: mixed.cores,
      paced: {
        latency_ms: PACED_MS,
        judge_alone_votes_per_s: Math.round(pacedAlone.perSecond),
        judge_mixed_votes_per_s: Math.round(pacedMixed.perSecond),
        judge_mixed_share_of_alone: +(pacedMixed.perSecond / pacedAlone.perSecond).toFixed(3),
        readers_p95_ms: pacedRead.p95,
        label_save_p95_ms: percentile(pacedSaves.saves, 0.95),
        votes_written: pacedCounted.votes,
        votes_answered: (await runProgress(pacedMixed.runId)).done,
        // Stored in this window: the count after it less the count after the first.
        labels_written: pacedCounted.labels - counted.labels,
        label_saves: pacedSaves.saves.length,
        cores_alone: pacedAlone.cores,
        cores_mixed: pacedMixed.cores,
      },
    };
  } finally {
    fake.close();
    paced.close();
    await closeCurrentDb();
  }
}
