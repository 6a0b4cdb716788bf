import "server-only";
// Pure computations off the request thread (lib/domain/off-thread.ts names them): the paired
// changes' bootstrap is hundreds of ms of CPU at paper scale, two panels compared seconds, which on
// the request thread would hold every other reader of the server as long. One worker thread per
// process, started on first use and again after it dies (its callers then get the error, the next
// call a new worker); it holds the process open only while it has work, and its heap is bounded
// apart from the process's.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { config } from "@/lib/config";
import type { OffThread } from "@/lib/domain/off-thread";

type Waiting = { resolve: (value: unknown) => void; reject: (e: Error) => void };
type Answer = { id: number; value?: unknown; error?: string };

/**
 * The worker's heap: as large as the process's (HEAP_LIMIT_MB), so that what fitted on the request
 * thread (two panels compared at 150,000 trajectories) fits here; work past it fails, the server stays.
 */
const workerHeapMb = () => config().HEAP_LIMIT_MB;
const state = globalThis as unknown as {
  __computeThread?: { worker: Worker; waiting: Map<number, Waiting>; next: number };
};

/**
 * The worker: the computation of lib/domain/off-thread.ts each message names. Its code is given here
 * and its module loaded from the source tree through tsx at run time, as the app's own modules are:
 * the bundler of the app's server would otherwise take a worker's file for a module to bundle.
 */
const WORKER_CODE = `
const { createRequire } = require("node:module");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { parentPort, workerData } = require("node:worker_threads");
// tsx's ESM API as the source tree has it installed, whatever folder the process runs in.
const from = createRequire(workerData.parent);
const tsxPackage = from.resolve("tsx/package.json");
const api = path.join(path.dirname(tsxPackage), from(tsxPackage).exports["./esm/api"].import.default);
import(pathToFileURL(api).href).then(async ({ tsImport }) => {
  const { OFF_THREAD } = await tsImport(workerData.module, workerData.parent);
  parentPort.on("message", ({ id, name, args }) => {
    try {
      parentPort.postMessage({ id, value: OFF_THREAD[name](...args) });
    } catch (e) {
      parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
    }
  });
});`;

/**
 * The source tree: two folders above this file when it runs from source (tests, the command line
 * from any folder), else the folder the server runs in (the bundled app runs from the tree). A
 * worker thread loads its modules from there (this one, lib/server/pattern-thread.ts's).
 */
export function sourceRoot(): string {
  const here = import.meta.url.startsWith("file:") ? fileURLToPath(import.meta.url) : "";
  const tail = path.join("lib", "server", "compute-thread.ts");
  return here.endsWith(tail) ? here.slice(0, -tail.length) : `${process.cwd()}${path.sep}`;
}

function thread() {
  if (state.__computeThread) return state.__computeThread;
  const root = sourceRoot();
  const worker = new Worker(WORKER_CODE, {
    eval: true,
    workerData: {
      module: `${root}${["lib", "domain", "off-thread.ts"].join(path.sep)}`,
      parent: pathToFileURL(root).href,
    },
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: workerHeapMb() },
  });
  const t = { worker, waiting: new Map<number, Waiting>(), next: 1 };
  const settle = (id: number) => {
    const w = t.waiting.get(id);
    t.waiting.delete(id);
    if (!t.waiting.size) worker.unref();
    return w;
  };
  worker.on("message", ({ id, value, error }: Answer) => {
    const w = settle(id);
    if (error !== undefined) w?.reject(new Error(error));
    else w?.resolve(value);
  });
  const fail = (e: Error) => {
    if (state.__computeThread === t) state.__computeThread = undefined;
    for (const id of [...t.waiting.keys()]) settle(id)?.reject(e);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the computing thread stopped (exit code ${code})`)));
  worker.unref();
  state.__computeThread = t;
  return t;
}

/** lib/domain/off-thread.ts's computation `name` on `args`, computed on the worker thread. */
export function offThread<K extends keyof OffThread>(
  name: K,
  ...args: Parameters<OffThread[K]>
): Promise<ReturnType<OffThread[K]>> {
  const t = thread();
  const id = t.next++;
  return new Promise((resolve, reject) => {
    t.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
    t.worker.ref();
    t.worker.postMessage({ id, name, args });
  });
}
