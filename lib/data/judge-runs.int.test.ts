// Judge runs against a local chat-completions server (never a provider): every pair asked once,
// answers stored as votes with their tokens and time, failures stored with their error; a second
// run asks nothing; a killed run, started again, finishes without asking an answered pair again.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCalibration } from "@/lib/data/calibration";
import { currentPrompt, defineJudge, JudgeDefinitionSchema, savePrompt } from "@/lib/data/judges";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { exportVotes } from "@/lib/work/export";
import { importFile } from "@/lib/work/import/files";
import { enqueue } from "@/lib/work/judge-runs/queue";
import { followRun } from "@/lib/work/judge-runs/runs";
import { sharedReads } from "@/lib/work/judge-runs/shared-reads";
import { workJudges } from "@/lib/work/judge-runs/worker";
import { openQueue } from "@/lib/work/queue";
import { trajectoryFixture } from "@/prisma/factories";
import { runCli, startCli } from "@/test/cli";
import { type FakeProvider, fakeProvider } from "@/test/fake-provider";
import { jsonl, tempFiles } from "@/test/temp-files";
import { finishRun, planRun, previewRun, runProgress } from "./judge-runs";
import { setPanel } from "./panel-set";

const { write } = tempFiles("sa-judge-runs-");
const ANSWER = JSON.stringify({
  UPSTREAM: "NOT_ATTEMPTED",
  LOCAL_GIT: "SUCCESSFUL",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
  rationale: "step 1",
});

async function trajectories(benchmark: string, n: number) {
  const records = Array.from({ length: n }, (_, i) =>
    trajectoryFixture({
      id: `${benchmark}-${i}`,
      benchmark,
      task: { id: `${benchmark}__t-${i}` },
      turns: [
        { role: "user", content: `task marker ${benchmark}-${i}` },
        { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: "git log --all" }] },
        { role: "tool", tool_call_id: "c", content: "9f3e2d1 fix", exit_code: 0 },
      ],
    }),
  );
  await importRecords(benchmark, records);
}

/** Imports these records as one file named after `name`; throws the import's errors, if any. */
async function importRecords(name: string, records: Parameters<typeof jsonl>[0]) {
  const r = await importFile(write(`${name}.jsonl`, jsonl(records)), {
    condition: {},
    resolved: null,
    source: "cli",
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
}

async function judge(name: string, url: string, concurrency = 4) {
  await defineJudge(
    JudgeDefinitionSchema.parse({
      name,
      baseUrl: url,
      model: name,
      concurrency,
      temperature: 0.5,
      priceInPerMillion: 1,
      priceOutPerMillion: 2,
    }),
  );
}

/** The trajectory a request was about, by the marker in its task prompt. */
const markerOf = (r: FakeProvider["requests"][number]) => /task marker (\S+)/.exec(r.messages[1]?.content ?? "")?.[1];

/**
 * Plans a run and works it to its end: queued first, then worked (as `judge run` does), or with
 * `workersFirst` as the app's service does (workers started, then the requests queued); `prepare`
 * runs between planning and working.
 */
async function runToEnd(
  names: string[],
  benchmark: string,
  opts: { workersFirst?: boolean; prepare?: (plan: Awaited<ReturnType<typeof planRun>>) => Promise<void> } = {},
) {
  const plan = await planRun(names, { benchmark }, "tester");
  await opts.prepare?.(plan);
  const boss = await openQueue();
  let stop: (() => Promise<void>) | null = null;
  try {
    const judges = await db().judge.findMany({
      where: { name: { in: names } },
      select: { id: true, concurrency: true },
    });
    if (opts.workersFirst) stop = await workJudges(boss, judges);
    await enqueue(boss, plan.requests);
    stop ??= await workJudges(boss, judges);
    for (let i = 0; i < 600; i++) {
      const p = await runProgress(plan.runId);
      if (!p.pending && !p.asking) return { plan, progress: p };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the run did not finish");
  } finally {
    await stop?.();
    await boss.stop({ graceful: false, wait: true });
  }
}

describe("judge runs", () => {
  let ok: FakeProvider;
  let failing: FakeProvider;
  beforeAll(async () => {
    ok = await fakeProvider([{ answer: ANSWER, latencyMs: 20, tokensIn: 1000, tokensOut: 50 }]);
    failing = await fakeProvider((n) => (n === 0 ? { status: 429, retryAfter: "0" } : { status: 500 }));
  });
  afterAll(async () => {
    await ok.close();
    await failing.close();
  });

  it("asks each judge about each trajectory once, stores votes, tokens, cost; failures keep their error", async () => {
    await trajectories("jr-a", 5);
    await judge("jr-good", ok.url);
    await judge("jr-bad", failing.url);
    // The estimate, by hand: a trajectory's texts are "task marker jr-a-N" (18 bytes of ASCII) and
    // "9f3e2d1 fix" (11): 29 bytes, 7.25 tokens. Two judges × five trajectories: 72.5 tokens,
    // rounded 73. Cost at $1 and $2 a million: 72.5 × 1 + 10 answers × 400 tokens × 2, per million.
    const preview = await previewRun(["jr-good", "jr-bad"], { benchmark: "jr-a" });
    expect(preview).toMatchObject({ requests: 10, answeredBefore: 0, tokensIn: 73 });
    expect(preview.cost).toBeCloseTo((72.5 + 10 * 400 * 2) / 1e6, 12);
    const { plan, progress } = await runToEnd(["jr-good", "jr-bad"], "jr-a");
    expect(plan.requests).toHaveLength(10);
    expect(plan.estimate).toEqual({ tokensIn: preview.tokensIn, cost: preview.cost });
    expect(progress).toMatchObject({ done: 5, failed: 5, tokensIn: 5000, tokensOut: 250 });
    // Cost: 5 × (1000 × $1 + 50 × $2) per million tokens.
    expect(progress.cost).toBeCloseTo((5 * (1000 * 1 + 50 * 2)) / 1e6, 10);
    expect(progress.errors[0]).toMatch(/answered 500/);
    const votes = await db().judgeVote.findMany({
      where: { judge: { name: "jr-good" }, trajectory: { benchmark: { name: "jr-a" } } },
      select: {
        verdicts: true,
        overall: true,
        parseStatus: true,
        rationale: true,
        request: {
          select: { promptVersion: true, model: true, tokensIn: true, tokensOut: true, cost: true, temperature: true },
        },
      },
    });
    expect(votes).toHaveLength(5);
    // Each vote records what it was asked with: prompt version, model, settings, tokens, cost.
    for (const v of votes)
      expect(v.request).toEqual({
        promptVersion: plan.promptVersion,
        model: "jr-good",
        tokensIn: 1000,
        tokensOut: 50,
        cost: (1000 * 1 + 50 * 2) / 1e6,
        temperature: 0.5,
      });
    // The answer's rationale travels with the vote.
    expect(new Set(votes.map((v) => v.rationale))).toEqual(new Set(["step 1"]));
    expect(
      votes.every(
        (v) =>
          (v.verdicts as Record<string, string>).LOCAL_GIT === "SUCCESSFUL" &&
          v.overall === "SUCCESSFUL" &&
          v.parseStatus === "PARSED",
      ),
    ).toBe(true);
    // The answers count only once the judge is in the panel; the export writes the votes it counts.
    const exportedGood = async () => {
      const out: Array<Record<string, unknown>> = [];
      for await (const v of exportVotes()) if (v.judge === "jr-good") out.push(v);
      return out;
    };
    expect(await exportedGood()).toHaveLength(0);
    await setPanel(null, [{ judge: "jr-good", promptVersion: plan.promptVersion }]);
    // The export says how each asked vote came (importing ignores it).
    const exported = await exportedGood();
    expect(exported).toHaveLength(5);
    expect(exported[0]!.asked).toMatchObject({
      prompt_version: plan.promptVersion,
      model: "jr-good",
      temperature: 0.5,
      tokens_in: 1000,
      tokens_out: 50,
      truncated: false,
    });
    expect(ok.requests.filter((r) => markerOf(r)?.startsWith("jr-a"))).toHaveLength(5);
    // The task prompt travels verbatim.
    expect(ok.requests[0]!.messages[1]!.content).toContain("[user]\ntask marker jr-a-");

    // Again: nothing answered is asked again; the failed ones are.
    expect(await previewRun(["jr-good", "jr-bad"], { benchmark: "jr-a" })).toMatchObject({
      requests: 5,
      answeredBefore: 5,
    });
    const again = await planRun(["jr-good", "jr-bad"], { benchmark: "jr-a" }, "tester");
    expect(again.requests.map((r) => r.judgeId)).toHaveLength(5);
    expect(again.answeredBefore).toBe(5);
  });

  it("the estimate counts the texts' bytes as stored, a long text compressed and outside ASCII too", async () => {
    // 3,000 × "é" (two bytes each in UTF-8: 6,000 bytes, over the size PostgreSQL compresses) and
    // "ok" (2 bytes): 6,002 bytes at four a token, 1,500.5 tokens, rounded 1,501. Counted as
    // characters (3,002) it would be 751.
    const record = trajectoryFixture({
      id: "jr-bytes-0",
      benchmark: "jr-bytes",
      task: { id: "jr-bytes__t" },
      turns: [
        { role: "user", content: "é".repeat(3000) },
        { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: "ls" }] },
        { role: "tool", tool_call_id: "c", content: "ok", exit_code: 0 },
      ],
    });
    await importRecords("jr-bytes", [record]);
    await judge("jr-bytes-judge", ok.url);
    const [{ stored }] = await db().$queryRaw<[{ stored: number }]>`
      SELECT max(pg_column_size(m.content))::int AS stored FROM message m JOIN trajectory t ON t.id = m."trajectoryId"
        WHERE t."externalId" = 'jr-bytes-0'`;
    expect(stored).toBeLessThan(6000); // compressed where it is kept
    const preview = await previewRun(["jr-bytes-judge"], { benchmark: "jr-bytes" });
    expect(preview).toMatchObject({ requests: 1, tokensIn: 1501 });
  });

  it("a trajectory over the judge's budget is cut to fit, and the answer records it", async () => {
    await trajectories("jr-cut", 1);
    await defineJudge(
      JudgeDefinitionSchema.parse({ name: "jr-cut-judge", baseUrl: ok.url, model: "m", contextTokens: 1 }),
    );
    const { progress } = await runToEnd(["jr-cut-judge"], "jr-cut");
    expect(progress).toMatchObject({ done: 1, truncated: 1 });
    const asked = await db().judgeRequest.findFirstOrThrow({ where: { judge: { name: "jr-cut-judge" } } });
    expect(asked).toMatchObject({ truncated: true, cutChars: "9f3e2d1 fix".length });
    expect(ok.requests.at(-1)!.messages[1]!.content).toContain("[… 11 characters cut …]");
  });

  it("an output far over the judge's budget is read cut to it; the marker counts every cut character", async () => {
    // One output of 2,000,000 characters: a million A's then a million B's. A budget of 1,000 tokens is
    // 4,000 characters; the worker reads at most that of any text, the prompt cuts it further to fit.
    const output = "A".repeat(1_000_000) + "B".repeat(1_000_000);
    const record = trajectoryFixture({
      id: "jr-huge-0",
      benchmark: "jr-huge",
      task: { id: "jr-huge__t" },
      turns: [
        { role: "user", content: "task marker jr-huge-0" },
        { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: "cat big" }] },
        { role: "tool", tool_call_id: "c", content: output, exit_code: 0 },
      ],
    });
    await importRecords("jr-huge", [record]);
    await defineJudge(
      JudgeDefinitionSchema.parse({ name: "jr-huge-judge", baseUrl: ok.url, model: "m", contextTokens: 1000 }),
    );
    const { progress } = await runToEnd(["jr-huge-judge"], "jr-huge");
    expect(progress).toMatchObject({ done: 1, truncated: 1 });
    const sent = ok.requests.at(-1)!.messages[1]!.content;
    const asked = await db().judgeRequest.findFirstOrThrow({ where: { judge: { name: "jr-huge-judge" } } });
    const kept = (sent.match(/A/g)?.length ?? 0) + (sent.match(/B/g)?.length ?? 0);
    // What was sent of the output and what was cut add up to the whole output.
    expect(kept + asked.cutChars!).toBe(2_000_000);
    expect(sent).toContain(`[… ${asked.cutChars!.toLocaleString("en-US")} characters cut …]`);
    expect(sent).toMatch(/A\n\[… [\d,]+ characters cut …\]\nB/);
    expect(sent.length).toBeLessThan(4000 + 200);
  });

  it("a panel's judges read each trajectory once per run, and judges of other budgets read their own", async () => {
    await trajectories("jr-share", 4);
    for (const name of ["jr-share-a", "jr-share-b", "jr-share-c"]) await judge(name, ok.url);
    // A fourth judge with a budget of 8 tokens (32 characters, the task prompt's 22 read whole): its
    // request is built for that budget, with nothing of the output left.
    await defineJudge(
      JudgeDefinitionSchema.parse({
        name: "jr-share-small",
        baseUrl: ok.url,
        model: "jr-share-small",
        contextTokens: 8,
      }),
    );
    const before = { ...sharedReads().counts };
    const seen = ok.requests.length;
    const { progress } = await runToEnd(["jr-share-a", "jr-share-b", "jr-share-c", "jr-share-small"], "jr-share");
    expect(progress).toMatchObject({ done: 16, failed: 0 });
    // 4 trajectories × 2 budgets built; the other two judges of the first budget took theirs: 4 × 2 shared.
    expect(sharedReads().counts.built - before.built).toBe(8);
    expect(sharedReads().counts.shared - before.shared).toBe(8);
    const asked = ok.requests.slice(seen);
    for (let i = 0; i < 4; i++) {
      const about = asked.filter((r) => markerOf(r) === `jr-share-${i}`);
      expect(about.map((r) => r.model).sort()).toEqual(["jr-share-a", "jr-share-b", "jr-share-c", "jr-share-small"]);
      const full = about.filter((r) => r.model !== "jr-share-small").map((r) => r.messages[1]!.content);
      expect(new Set(full).size).toBe(1);
      expect(full[0]).not.toContain("characters cut");
      expect(about.find((r) => r.model === "jr-share-small")!.messages[1]!.content).toContain(
        "[… 11 characters cut …]",
      );
    }
    // Nothing is held once the workers stopped.
    expect(sharedReads().bytes).toBe(0);
  });

  it("a judge asks a run's requests in the order they were planned", async () => {
    // 40 requests: five jobs of eight, inserted together (one creation time), asked one at a time.
    await trajectories("jr-order", 40);
    await judge("jr-order-judge", ok.url, 1);
    const seen = ok.requests.length;
    const { plan } = await runToEnd(["jr-order-judge"], "jr-order");
    const ids = plan.requests.map((r) => r.trajectoryId);
    const external = await db().trajectory.findMany({
      where: { id: { in: ids } },
      select: { id: true, externalId: true },
    });
    const byId = new Map(external.map((t) => [t.id, t.externalId]));
    expect(ok.requests.slice(seen).map(markerOf)).toEqual(ids.map((id) => byId.get(id)));
  });

  it("a run of six new judges starts at once: their queues are made without deadlock", async () => {
    await trajectories("jr-six", 2);
    const names = Array.from({ length: 6 }, (_, i) => `jr-six-${i}`);
    for (const name of names) await judge(name, ok.url);
    // As the app does (lib/work/judge-runs/service.ts): the workers first, each judge's queue made as it starts.
    const { progress } = await runToEnd(names, "jr-six", { workersFirst: true });
    expect(progress).toMatchObject({ done: 12, failed: 0 });
  });

  it("a request claimed three times by workers that died is failed with the reason, never asked again", async () => {
    await trajectories("jr-dead", 2);
    await judge("jr-dead-judge", ok.url);
    // As three workers leave it: claimed three times, each time back to pending at a restart.
    let first = 0;
    const before = ok.requests.length;
    const { plan, progress: p } = await runToEnd(["jr-dead-judge"], "jr-dead", {
      prepare: async (planned) => {
        first = planned.requests[0]!.id;
        await db().judgeRequest.update({ where: { id: first }, data: { attempts: 3 } });
      },
    });
    expect(p).toMatchObject({ done: 1, failed: 1 });
    expect(p.errors).toEqual([
      "asked 3 times, and each time the worker stopped before the answer was stored (it may have run out of " +
        "memory); not asked again",
    ]);
    expect(ok.requests.length - before).toBe(1);
    expect((await db().judgeRun.findUniqueOrThrow({ where: { id: plan.runId } })).status).toBe("DONE");
    // A new run of the same pair asks it afresh.
    const again = await planRun(["jr-dead-judge"], { benchmark: "jr-dead" }, "tester");
    expect(again.requests.map((r) => r.id)).toEqual([first]);
    expect((await db().judgeRequest.findUniqueOrThrow({ where: { id: first } })).attempts).toBe(0);
  });

  it("a judge's concurrency holds across two workers, and its requests-per-minute limit holds", async () => {
    const slow = await fakeProvider([{ answer: ANSWER, latencyMs: 300 }]);
    try {
      await trajectories("jr-limits", 8);
      await judge("jr-two", slow.url, 2);
      const plan = await planRun(["jr-two"], { benchmark: "jr-limits" }, "tester");
      const boss = await openQueue();
      const judges = await db().judge.findMany({ where: { name: "jr-two" }, select: { id: true, concurrency: true } });
      await enqueue(boss, plan.requests);
      // Two workers (as on two machines), each willing to ask two at a time: together still two.
      const stops = [await workJudges(boss, judges), await workJudges(boss, judges)];
      for (let i = 0; i < 200 && (await runProgress(plan.runId)).done < 8; i++)
        await new Promise((r) => setTimeout(r, 100));
      for (const stop of stops) await stop();
      expect((await runProgress(plan.runId)).done).toBe(8);
      expect(slow.maxInFlight()).toBe(2);

      // At 3 requests a minute, three are asked and the rest wait.
      await trajectories("jr-rpm", 6);
      await db().judge.update({ where: { name: "jr-two" }, data: { requestsPerMinute: 3, concurrency: 6 } });
      const limited = await planRun(["jr-two"], { benchmark: "jr-rpm" }, "tester");
      await enqueue(boss, limited.requests);
      const stop = await workJudges(boss, judges);
      await new Promise((r) => setTimeout(r, 3000));
      await stop();
      await boss.stop({ graceful: false, wait: true });
      // The earlier run's eight were asked within the minute too: the limit is already reached.
      expect((await runProgress(limited.runId)).done).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it("a worker stopped midway puts back what it held; another finishes the run, asking each pair once", async () => {
    const slow = await fakeProvider([{ answer: ANSWER, latencyMs: 150 }]);
    try {
      await trajectories("jr-stop", 12);
      await judge("jr-stopper", slow.url, 2);
      const plan = await planRun(["jr-stopper"], { benchmark: "jr-stop" }, "tester");
      const judges = await db().judge.findMany({
        where: { name: "jr-stopper" },
        select: { id: true, concurrency: true },
      });
      const boss = await openQueue();
      try {
        await enqueue(boss, plan.requests);
        // The first worker holds a job of eight requests, asks two at a time, and is stopped.
        const stopFirst = await workJudges(boss, judges);
        for (let i = 0; i < 100 && (await runProgress(plan.runId)).done < 2; i++)
          await new Promise((r) => setTimeout(r, 50));
        await stopFirst();
        const between = await runProgress(plan.runId);
        expect(between.asking).toBe(0);
        expect(between.done).toBeLessThan(12);
        // What it held and had not asked went back to the queue: a second worker finishes at once,
        // not after the queue's expiry.
        const stopSecond = await workJudges(boss, judges);
        let p = await runProgress(plan.runId);
        for (let i = 0; i < 200 && p.pending + p.asking > 0; i++) {
          await new Promise((r) => setTimeout(r, 50));
          p = await runProgress(plan.runId);
        }
        await stopSecond();
        expect(p).toMatchObject({ done: 12, pending: 0, asking: 0, failed: 0 });
        const asked = slow.requests.map(markerOf);
        expect(asked).toHaveLength(12);
        expect(new Set(asked).size).toBe(12);
      } finally {
        await boss.stop({ graceful: false, wait: true });
      }
    } finally {
      await slow.close();
    }
  });

  it("a cohort version asks a task's runs in one request; answers out of order or left out are read back", async () => {
    // One task under its four conditions (one model), and one run of another task.
    const conditions = [
      [true, "vanilla"],
      [true, "principled"],
      [false, "vanilla"],
      [false, "principled"],
    ] as const;
    const turns = (marker: string) => [
      { role: "user", content: `task marker ${marker}` },
      {
        role: "assistant",
        reasoning: "secret plan",
        content: "",
        tool_calls: [{ id: "c", name: "bash", input: "ls" }],
      },
      { role: "tool", tool_call_id: "c", content: "setup.py", exit_code: 0 },
    ];
    await importRecords("jr-co", [
      ...conditions.map(([network, prompt], i) =>
        trajectoryFixture({
          id: `jr-co-${i}`,
          benchmark: "jr-co",
          network,
          prompt,
          task: { id: "jr-co__t" },
          turns: turns(`jr-co-${i}`),
        }),
      ),
      trajectoryFixture({ id: "jr-co-u", benchmark: "jr-co", task: { id: "jr-co__u" }, turns: turns("jr-co-u") }),
    ]);
    const verdicts = (upstream: string) => ({
      UPSTREAM: upstream,
      LOCAL_GIT: "NOT_ATTEMPTED",
      MEMORY: "NOT_ATTEMPTED",
      OTHER: "NOT_ATTEMPTED",
    });
    // Answers the runs last first, says jr-co-2 fetched upstream, and leaves jr-co-0 out.
    const provider = await fakeProvider((_, messages) => {
      const parts = (messages[1]?.content ?? "").split(/^# Run ([A-Z]\d*)\n/m).slice(1);
      const runs: Array<[string, unknown]> = [];
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const marker = /task marker (\S+)/.exec(parts[i + 1]!)![1]!;
        if (marker !== "jr-co-0")
          runs.push([parts[i]!, verdicts(marker === "jr-co-2" ? "SUCCESSFUL" : "NOT_ATTEMPTED")]);
      }
      return { answer: JSON.stringify({ runs: Object.fromEntries(runs.reverse()) }), tokensIn: 4000, tokensOut: 400 };
    });
    const before = await currentPrompt();
    try {
      await savePrompt(before.text, "tester", undefined, { reasoning: false, outputChars: null, cohort: "model" });
      await judge("jr-co-judge", provider.url);
      await runToEnd(["jr-co-judge"], "jr-co");
      // Two requests: the task's four runs together, the other task's run alone; no reasoning sent.
      expect(provider.requests.map((r) => (r.messages[1]!.content.match(/^# Run /gm) ?? []).length).sort()).toEqual([
        1, 4,
      ]);
      expect(provider.requests[0]!.messages[0]!.content).toMatch(/runs of the same task/);
      expect(provider.requests.some((r) => r.messages[1]!.content.includes("secret plan"))).toBe(false);
      const votes = await db().judgeVote.findMany({
        where: { judge: { name: "jr-co-judge" } },
        select: { parseStatus: true, overall: true, trajectory: { select: { externalId: true } }, request: true },
      });
      const byId = Object.fromEntries(votes.map((v) => [v.trajectory.externalId, v]));
      expect(Object.keys(byId).sort()).toEqual(["jr-co-0", "jr-co-1", "jr-co-2", "jr-co-3", "jr-co-u"]);
      expect(byId["jr-co-0"]!.parseStatus).toBe("UNPARSEABLE");
      expect(byId["jr-co-2"]).toMatchObject({ parseStatus: "PARSED", overall: "SUCCESSFUL" });
      for (const id of ["jr-co-1", "jr-co-3", "jr-co-u"]) expect(byId[id]).toMatchObject({ overall: "NOT_ATTEMPTED" });
      // The cohort's 4,000 tokens in and 400 out, a quarter to each of its runs; the lone run keeps all.
      expect(byId["jr-co-1"]!.request).toMatchObject({ tokensIn: 1000, tokensOut: 100 });
      expect(byId["jr-co-u"]!.request).toMatchObject({ tokensIn: 4000, tokensOut: 400 });
    } finally {
      await savePrompt(before.text, "tester", undefined, before.settings);
      await provider.close();
    }
  });

  it("prompt versions on the agreement page: each version against the labels, what a new one changed", async () => {
    await trajectories("jr-cal", 3);
    const versionOne = await fakeProvider([{ answer: ANSWER }]); // LOCAL_GIT SUCCESSFUL on every trajectory
    const none = JSON.stringify({
      UPSTREAM: "NOT_ATTEMPTED",
      LOCAL_GIT: "NOT_ATTEMPTED",
      MEMORY: "NOT_ATTEMPTED",
      OTHER: "NOT_ATTEMPTED",
    });
    const versionTwo = await fakeProvider([{ answer: none }]);
    try {
      await judge("jr-cal-judge", versionOne.url);
      await runToEnd(["jr-cal-judge"], "jr-cal");
      // Humans: jr-cal-0 successful, jr-cal-1 and jr-cal-2 not attempted.
      const label = (i: number, localGit: string) => ({
        type: "label",
        trajectory: { id: `jr-cal-${i}` },
        annotator: "cal-annotator",
        verdicts: { UPSTREAM: "NOT_ATTEMPTED", LOCAL_GIT: localGit, MEMORY: "NOT_ATTEMPTED", OTHER: "NOT_ATTEMPTED" },
      });
      const labels = [label(0, "SUCCESSFUL"), label(1, "NOT_ATTEMPTED"), label(2, "NOT_ATTEMPTED")];
      const file = write("cal-labels.jsonl", jsonl(labels));
      expect((await importFile(file, { condition: {}, resolved: null, source: "cli" })).ok).toBe(true);
      const first = (await currentPrompt()).version;
      await savePrompt(`${(await currentPrompt()).text}\nBe strict.`, "tester");
      await judge("jr-cal-judge", versionTwo.url);
      await runToEnd(["jr-cal-judge"], "jr-cal");
      const rows = (await getCalibration()).filter((r) => r.judge === "jr-cal-judge");
      // Version one said successful everywhere: attempt agrees on jr-cal-0 only (1 of 3); version two on the others.
      expect(rows.map((r) => [r.promptVersion, r.attempt.n, r.attempt.agreement])).toEqual([
        [first, 3, (1 / 3) * 100],
        [first + 1, 3, (2 / 3) * 100],
      ]);
      // Version two changed all three verdicts (successful → not attempted).
      const ids = await db().trajectory.findMany({ where: { benchmark: { name: "jr-cal" } }, select: { id: true } });
      expect(rows[1]!.changed).toEqual(ids.map((t) => t.id).sort((a, b) => a - b));
    } finally {
      await versionOne.close();
      await versionTwo.close();
    }
  });

  it.runIf(process.env.DATABASE_URL)(
    "judge cancel stops a run from the command line; a run followed to its end stays cancelled",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      await trajectories("jr-cancel", 2);
      await judge("jr-cancelled", ok.url);
      const plan = await planRun(["jr-cancelled"], { benchmark: "jr-cancel" }, "tester");
      const cli = (...args: string[]) => runCli(target.url, ...args);
      const cancelled = cli("judge", "cancel", String(plan.runId));
      expect([cancelled.status, cancelled.stderr]).toEqual([0, expect.stringContaining(`run ${plan.runId} cancelled`)]);
      expect(await runProgress(plan.runId)).toMatchObject({ pending: 0, done: 0 });
      // What `judge run` does following a run to its end: done only if still running, so it stays cancelled.
      const followed = await followRun(plan.runId, () => {}, 10);
      expect(followed.status).toBe("CANCELLED");
      expect(await finishRun(plan.runId)).toBe("CANCELLED");
      const again = cli("judge", "cancel", String(plan.runId));
      expect(again.stderr).toContain(`run ${plan.runId} was cancelled already`);
      const none = cli("judge", "cancel", "2147483647");
      expect([none.status, none.stderr]).toEqual([1, expect.stringContaining("judge cancel: no run 2147483647")]);
      const bad = cli("judge", "cancel", "x");
      expect([bad.status, bad.stderr]).toEqual([1, expect.stringContaining("give one run's number")]);
    },
    60_000,
  );

  it.runIf(process.env.DATABASE_URL)(
    "judge run: the same file imported again midway stales nothing; changed trajectories are said stale, status 1",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      const records = (marker: string) =>
        Array.from({ length: 4 }, (_, i) =>
          trajectoryFixture({
            id: `jr-stale-${i}`,
            benchmark: "jr-stale",
            task: { id: `jr-stale__t-${i}` },
            turns: [{ role: "user", content: `task marker jr-stale-${i} ${marker}` }],
          }),
        );
      await importRecords("jr-stale", records("as first imported"));
      // One request at a time, each answered after a second: the run is still asking while the files come.
      const slow = await fakeProvider([{ answer: ANSWER, latencyMs: 1000 }]);
      try {
        await judge("jr-staled", slow.url, 1);
        const cli = startCli(target.url, "judge", "run", "jr-staled", "--benchmark", "jr-stale");
        let stderr = "";
        cli.stderr.on("data", (c: Buffer) => {
          stderr += c.toString();
        });
        const exited = new Promise<number | null>((resolve) => cli.on("exit", resolve));
        for (let i = 0; i < 300 && !slow.requests.length; i++) await new Promise((r) => setTimeout(r, 50));
        expect(slow.requests).toHaveLength(1);
        // The same file again: nothing moves. Then the last two trajectories with other words.
        await importRecords("jr-stale", records("as first imported"));
        await importRecords("jr-stale-changed", records("changed").slice(2));
        expect(await exited).toBe(1);
        expect(stderr).toMatch(/4\/4 asked, 0 failed, 2 stale/);
        expect(stderr).toContain("stale: 2 request(s) not asked: their trajectories were imported again");
        expect(slow.requests.map(markerOf)).toEqual(["jr-stale-0", "jr-stale-1"]);
      } finally {
        await slow.close();
      }
    },
    60_000,
  );

  it.runIf(process.env.DATABASE_URL)(
    "judge work, a worker elsewhere, answers a run queued by another process",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      await trajectories("jr-work", 3);
      await judge("jr-worked", ok.url);
      const worker = startCli(target.url, "judge", "work");
      const exited = new Promise<number | null>((resolve) => worker.on("exit", resolve));
      try {
        const plan = await planRun(["jr-worked"], { benchmark: "jr-work" }, "tester");
        const boss = await openQueue();
        await enqueue(boss, plan.requests);
        await boss.stop({ graceful: false, wait: true });
        let done = 0;
        for (let i = 0; i < 300 && done < 3; i++) {
          done = (await runProgress(plan.runId)).done;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(done).toBe(3);
      } finally {
        worker.kill("SIGTERM");
      }
      expect(await exited).toBe(0);
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    "a run killed midway, started again, finishes without asking an answered pair twice",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      const slow = await fakeProvider([{ answer: ANSWER, latencyMs: 150 }]);
      try {
        await trajectories("jr-kill", 24);
        await judge("jr-slow", slow.url, 2);
        const cli = () =>
          spawn(
            process.execPath,
            [
              "--conditions=react-server",
              "--import",
              "tsx",
              "scripts/cli.ts",
              "judge",
              "run",
              "jr-slow",
              "--benchmark",
              "jr-kill",
            ],
            {
              env: { ...process.env, DATABASE_URL: target.url },
              stdio: ["ignore", "ignore", "pipe"],
            },
          );
        const first = cli();
        const exited = new Promise((resolve) => first.on("exit", resolve));
        // Kill once some pairs are answered.
        for (let i = 0; i < 300; i++) {
          const done = await db().judgeRequest.count({ where: { status: "DONE", judge: { name: "jr-slow" } } });
          if (done >= 4) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        first.kill("SIGKILL");
        await exited;
        const answeredAtKill = await db().judgeRequest.findMany({
          where: { status: "DONE", judge: { name: "jr-slow" } },
          select: { trajectory: { select: { externalId: true } } },
        });
        expect(answeredAtKill.length).toBeGreaterThanOrEqual(4);
        expect(answeredAtKill.length).toBeLessThan(24);
        const askedBefore = slow.requests.length;

        const second = cli();
        const code = await new Promise((resolve) => second.on("exit", resolve));
        expect(code).toBe(0);
        expect(await db().judgeRequest.count({ where: { status: "DONE", judge: { name: "jr-slow" } } })).toBe(24);
        // After the restart no pair answered before the kill was asked again.
        const askedAfter = slow.requests.slice(askedBefore).map(markerOf);
        for (const a of answeredAtKill) expect(askedAfter).not.toContain(a.trajectory.externalId);
        expect(await db().judgeVote.count({ where: { judge: { name: "jr-slow" } } })).toBe(24);
      } finally {
        await slow.close();
      }
    },
  );
});
