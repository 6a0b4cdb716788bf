// The working study of issue 31, for `npm run bench`: a judge run writing votes at its full rate
// against the fake provider, measured alone, then again while readers load the results page and
// the 5,000-step timeline (each a page a second) and ten annotators save a label a second each. The
// judges are made the panel in force first, so every vote moves the figures. Then every write is
// counted in the database. PostgreSQL only: the embedded database belongs to the app's process.
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
};

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

/** Ten annotators with items of their own in a study; each returns its assigned trajectories. */
async function annotators(researcher: Actor): Promise<Annotator[]> {
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
  const design = { name: "mixed load", seed: "mix", size: 12, overlap: 1, blind: false, annotators: handles };
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
  try {
    const sets = ["alone", "mixed"].map((k) => ["a", "b", "c"].map((j) => `mix-${k}-${j}`));
    for (const name of sets.flat())
      await defineJudge(JudgeDefinitionSchema.parse({ name, baseUrl: fake.url, model: name, concurrency: 32 }));
    const people = await annotators(o.researcher);
    o.log(`mixed load: a judge run alone for ${o.seconds} s`);
    const alone = await judgeWindow(sets[0]!, o.seconds);

    o.log(`mixed load: the run again, with ${o.connections} readers and ten annotators`);
    // Both run the window and the two seconds before it.
    const readers = loadProcess("scripts/bench-readers.ts", [
      o.base,
      o.cookie,
      String(o.seconds + 2),
      String(o.connections),
      String(READS_PER_SECOND),
      "/results",
      o.timeline,
    ]);
    const annotating = loadProcess("scripts/bench-annotators.ts", [url, String(o.seconds + 2), JSON.stringify(people)]);
    const mixed = await judgeWindow(sets[1]!, o.seconds, [readers, annotating]);
    const read: MixedFigures["readers"] = JSON.parse(await readers.result);
    const annotated: { saves: number[]; errors: number; statements: Record<string, number[]>; pings: number[] } =
      JSON.parse(await annotating.result);
    // No write lost: every answered request left a vote; every save, a label.
    const [votes] = await db().$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM judge_vote v JOIN judge j ON j.id = v."judgeId" WHERE j.name LIKE 'mix-mixed-%'`;
    const answered = (await runProgress(mixed.runId)).done;
    const labels = await db().label.count({ where: { annotator: { handle: { startsWith: "mix-ann-" } } } });
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
      votes_written: votes!.n,
      votes_answered: answered,
      labels_written: labels,
      cores_alone: alone.cores,
      cores_mixed: mixed.cores,
    };
  } finally {
    fake.close();
    await closeCurrentDb();
  }
}
