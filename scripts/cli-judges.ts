// npm run cli -- judge add|list|run|work|cancel: judges the app asks itself, and their runs, worked by
// this process's own workers on the job queue (a run started here) or shared with others (judge work).
import os from "node:os";
import { parseArgs } from "node:util";
import { judgeConcurrency } from "@/lib/data/judge-requests";
import { cancelRun } from "@/lib/data/judge-runs";
import { currentPrompt, defineJudge, JudgeDefinitionSchema, listJudges } from "@/lib/data/judges";
import { issuesText } from "@/lib/domain/format";
import { IdParam } from "@/lib/domain/params";
import { parseTrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { enqueue } from "@/lib/work/judge-runs/queue";
import { followRun, startRun } from "@/lib/work/judge-runs/runs";
import { workJudges } from "@/lib/work/judge-runs/worker";
import { openQueue } from "@/lib/work/queue";

type Fail = (message: string) => never;

/**
 * judge run NAME... [filters]: plans the run (what it will ask, an estimate), queues it, works it in
 * this process with each judge's concurrency, and prints progress, rate and cost until it is done.
 */
async function judgeRun(args: string[], fail: Fail): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: Object.fromEntries(
      ["benchmark", "model", "network", "prompt", "run", "task", "panel", "evidence"].map((k) => [
        k,
        { type: "string" },
      ]),
    ) as Record<string, { type: "string" }>,
  });
  if (!positionals.length) fail("judge run: name at least one judge");
  const filter = parseTrajectoryFilter(values as Record<string, string>);
  const judges = await judgeConcurrency({ names: positionals });
  const boss = await openQueue();
  let stopWorkers: (() => Promise<void>) | null = null;
  try {
    const plan = await startRun(positionals, filter, os.userInfo().username, (requests) => enqueue(boss, requests));
    console.error(
      `run ${plan.runId}: ${plan.requests.length} request(s) under prompt version ${plan.promptVersion} ` +
        `(${plan.answeredBefore} answered before); about ${plan.estimate.tokensIn.toLocaleString("en-US")} input ` +
        `tokens${plan.estimate.cost === null ? "" : `, about $${plan.estimate.cost.toFixed(2)}`}`,
    );
    stopWorkers = await workJudges(boss, judges);
    const started = performance.now();
    const { status, progress } = await followRun(plan.runId, (p) => {
      const seconds = (performance.now() - started) / 1000;
      const answered = p.done + p.failed + p.stale;
      console.error(
        `  ${answered}/${answered + p.pending + p.asking} asked, ${p.failed} failed, ${p.stale} stale, ` +
          `${(answered / Math.max(seconds, 0.001)).toFixed(1)}/s, ${p.tokensIn + p.tokensOut} tokens, ` +
          (p.cost === null ? "no prices" : `$${p.cost.toFixed(4)}`),
      );
    });
    for (const e of progress.errors) console.error(`  failed: ${e}`);
    if (progress.stale)
      console.error(
        `  stale: ${progress.stale} request(s) not asked: their trajectories were imported again with other ` +
          "content after the run was planned (run it again to ask them about what is stored now)",
      );
    if (status !== "DONE") console.error(`run ${plan.runId} was ${status.toLowerCase()} meanwhile`);
    return progress.failed || progress.stale || status !== "DONE" ? 1 : 0;
  } finally {
    await stopWorkers?.();
    await boss.stop({ graceful: false, wait: true });
  }
}

/**
 * judge work: a worker for runs started elsewhere (another machine, the app), sharing them through
 * the database until interrupted; each judge's limits hold across all workers.
 */
async function judgeWork(fail: Fail): Promise<number> {
  const judges = await judgeConcurrency("with-endpoint");
  if (!judges.length) fail("judge work: no judge has an endpoint (judge add defines one)");
  const boss = await openQueue();
  const stop = await workJudges(boss, judges);
  console.error(
    `working the queues of ${judges.map((j) => j.name).join(", ")}; Ctrl-C stops after the requests in flight`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await stop();
  await boss.stop({ graceful: false, wait: true });
  return 0;
}

/** judge cancel RUN: a run stops; what it asked is kept, what it had not asked is not asked. */
async function judgeCancel(args: string[], fail: Fail): Promise<number> {
  const id = IdParam.safeParse(args[0]);
  if (args.length !== 1 || !id.success) fail("judge cancel: give one run's number (the Judges page lists them)");
  const run = await cancelRun(id.data);
  if (run === null) fail(`judge cancel: no run ${id.data}`);
  console.error(run.cancelled ? `run ${id.data} cancelled` : `run ${id.data} was ${run.status.toLowerCase()} already`);
  return 0;
}

/** judge add | judge list: judges the app asks itself. */
export async function judgeCommand(args: string[], fail: Fail): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "list") {
    const prompt = await currentPrompt();
    console.error(`judge prompt in force: version ${prompt.version}`);
    for (const j of await listJudges())
      console.log(
        [
          j.name,
          j.endpoint ? `${j.model} at ${j.endpoint}` : "imported votes only",
          j.apiKeyEnv ? `key in $${j.apiKeyEnv}` : "no key",
          `concurrency ${j.concurrency}`,
          `${j.votes} answers`,
          `${j.unparseable} unparseable`,
        ].join("\t"),
      );
    return 0;
  }
  if (sub === "run") return judgeRun(rest, fail);
  if (sub === "cancel") return judgeCancel(rest, fail);
  if (sub === "work") return judgeWork(fail);
  if (sub !== "add") fail("judge: give add, run, work, cancel or list");
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      "base-url": { type: "string" },
      model: { type: "string" },
      "api-key-env": { type: "string" },
      concurrency: { type: "string" },
      rpm: { type: "string" },
      temperature: { type: "string" },
      "max-tokens": { type: "string" },
      "context-tokens": { type: "string" },
      "price-in": { type: "string" },
      "price-out": { type: "string" },
    },
  });
  const parsed = JudgeDefinitionSchema.safeParse({
    name: positionals[0],
    baseUrl: values["base-url"],
    model: values.model,
    apiKeyEnv: values["api-key-env"],
    concurrency: values.concurrency,
    requestsPerMinute: values.rpm,
    temperature: values.temperature,
    maxTokens: values["max-tokens"],
    contextTokens: values["context-tokens"],
    priceInPerMillion: values["price-in"],
    priceOutPerMillion: values["price-out"],
  });
  if (!parsed.success) fail(`judge add: ${issuesText(parsed.error.issues, "", "; ")}`);
  const { created } = await defineJudge(parsed.data);
  console.error(
    `judge ${parsed.data.name} ${created ? "added" : "updated"}: ${parsed.data.model} at ${parsed.data.baseUrl}`,
  );
  return 0;
}
