import "server-only";
// Pure computations off the request thread, on one worker per process restarted after it dies.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { config } from "@/lib/config";
import type { OffThread } from "@/lib/domain/off-thread";

type Waiting = { resolve: (value: unknown) => void; reject: (e: Error) => void };
type Answer = { id: number; value?: unknown; error?: string };

/** The worker's heap, as large as the process's, so what fitted on the request thread fits here. */
const workerHeapMb = () => config().HEAP_LIMIT_MB;
const state = globalThis as unknown as {
  __computeThread?: { worker: Worker; waiting: Map<number, Waiting>; next: number };
};

/** The worker's code, loading its module through tsx so the app's bundler leaves it alone. */
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

/** The source tree worker threads load from: two folders up from source, else the server's folder. */
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
