import "server-only";
// Rules' patterns on the embedded database, on a thread terminated past the limit (decision 48).
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { sourceRoot } from "./compute-thread";

const IDLE_MS = 120_000;
const START_LIMIT_MS = 60_000;

const WORKER_CODE = `
const { createRequire } = require("node:module");
const { pathToFileURL } = require("node:url");
const { parentPort, workerData } = require("node:worker_threads");
const from = createRequire(workerData.parent);
import(pathToFileURL(from.resolve("@electric-sql/pglite")).href).then(async ({ PGlite }) => {
  const db = new PGlite("memory://", { postgresqlconf: "shared_buffers=1MB" });
  await db.query("SELECT 1");
  parentPort.on("message", async ({ id, text, params }) => {
    try {
      parentPort.postMessage({ id, rows: (await db.query(text, params)).rows });
    } catch (e) {
      parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e), code: e && e.code });
    }
  });
  parentPort.postMessage({ ready: true });
});`;

type Call = {
  text: string;
  params: unknown[];
  limitMs: number;
  resolve: (rows: unknown[]) => void;
  reject: (e: Error) => void;
};
type Thread = { worker: Worker; ready: Promise<void> };

const state = globalThis as unknown as {
  __patternThread?: { thread: Thread | null; queue: Call[]; busy: boolean; idle?: NodeJS.Timeout };
};
const shared = () => (state.__patternThread ??= { thread: null, queue: [], busy: false });

/** The error of a statement past its limit, as PostgreSQL's own (lib/data/rule-sql.ts ranPastLimit reads it). */
export function pastLimit(ms: number): Error {
  return Object.assign(new Error(`canceling statement due to statement timeout (${ms} ms, on the pattern thread)`), {
    code: "57014",
  });
}

function start(): Thread {
  const worker = new Worker(WORKER_CODE, {
    eval: true,
    workerData: { parent: pathToFileURL(sourceRoot()).href },
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  worker.unref();
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the pattern thread did not start")), START_LIMIT_MS);
    worker.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the pattern thread stopped (exit code ${code})`)));
  });
  ready.catch(() => {});
  return { worker, ready };
}

function stop(s: ReturnType<typeof shared>): void {
  const t = s.thread;
  s.thread = null;
  if (t) void t.worker.terminate();
}

/** One call on the thread: its answer, its error, or past its limit the thread's end. */
async function run(s: ReturnType<typeof shared>, call: Call): Promise<unknown[]> {
  s.thread ??= start();
  const t = s.thread;
  try {
    await t.ready;
  } catch (e) {
    stop(s);
    throw e;
  }
  return new Promise<unknown[]>((resolve, reject) => {
    const id = Math.random();
    const done = () => {
      clearTimeout(timer);
      t.worker.off("message", onMessage);
      t.worker.off("exit", onExit);
    };
    const timer = setTimeout(() => {
      done();
      stop(s);
      reject(pastLimit(call.limitMs));
    }, call.limitMs);
    const onMessage = (m: { id: number; rows?: unknown[]; error?: string; code?: string }) => {
      if (m.id !== id) return;
      done();
      if (m.error !== undefined) reject(Object.assign(new Error(m.error), { code: m.code }));
      else resolve(m.rows ?? []);
    };
    const onExit = (code: number) => {
      done();
      if (s.thread === t) s.thread = null;
      reject(new Error(`the pattern thread stopped (exit code ${code})`));
    };
    t.worker.on("message", onMessage);
    t.worker.on("exit", onExit);
    t.worker.postMessage({ id, text: call.text, params: call.params });
  });
}

async function drain(s: ReturnType<typeof shared>): Promise<void> {
  if (s.busy) return;
  s.busy = true;
  clearTimeout(s.idle);
  for (let call = s.queue.shift(); call; call = s.queue.shift()) await run(s, call).then(call.resolve, call.reject);
  s.busy = false;
  s.idle = setTimeout(() => stop(s), IDLE_MS);
  s.idle.unref();
}

/** One statement on the pattern thread, stopped after `limitMs` (then PostgreSQL's statement timeout, 57014). */
export function patternQuery<T>(text: string, params: unknown[], limitMs: number): Promise<T[]> {
  const s = shared();
  if (limitMs <= 0) return Promise.reject(pastLimit(0));
  return new Promise<T[]>((resolve, reject) => {
    s.queue.push({ text, params, limitMs, resolve: resolve as (rows: unknown[]) => void, reject });
    void drain(s);
  });
}
