import "server-only";
// The paired changes computed off the request thread: thousands of resamples per condition are
// hundreds of ms of CPU at paper scale, which on the request thread would hold every other reader
// of the server as long. One worker thread per process, started on first use and again after it
// dies (its callers then get the error, the next call a new worker); it holds the process open only
// while it has work, and its heap is bounded apart from the process's.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Group, PairedChange, PairedRun } from "@/lib/domain/paired";

export type RunGroup = { group: Group; runs: PairedRun[] };

type Waiting = { resolve: (c: PairedChange[]) => void; reject: (e: Error) => void };
type Answer = { id: number; changes?: PairedChange[]; error?: string };

const WORKER_HEAP_MB = 256;
const state = globalThis as unknown as {
  __bootstrapThread?: { worker: Worker; waiting: Map<number, Waiting>; next: number };
};

/**
 * The worker: lib/domain/paired.ts's pairedChange on each group it is sent. Its code is given here
 * and its module loaded from the source tree through tsx at run time, as the app's own modules are:
 * the bundler of the app's server would otherwise take a worker's file for a module to bundle.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require("node:worker_threads");
import("tsx/esm/api").then(async ({ tsImport }) => {
  const { pairedChange } = await tsImport(workerData.module, workerData.parent);
  parentPort.on("message", ({ id, groups }) => {
    try {
      parentPort.postMessage({ id, changes: groups.map((g) => pairedChange(g.group, g.runs)) });
    } catch (e) {
      parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
    }
  });
});`;

function thread() {
  if (state.__bootstrapThread) return state.__bootstrapThread;
  const root = process.cwd();
  const worker = new Worker(WORKER_CODE, {
    eval: true,
    workerData: { module: [root, "lib", "domain", "paired.ts"].join(path.sep), parent: pathToFileURL(`${root}/`).href },
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const t = { worker, waiting: new Map<number, Waiting>(), next: 1 };
  const settle = (id: number) => {
    const w = t.waiting.get(id);
    t.waiting.delete(id);
    if (!t.waiting.size) worker.unref();
    return w;
  };
  worker.on("message", ({ id, changes, error }: Answer) => {
    const w = settle(id);
    if (error !== undefined) w?.reject(new Error(`the bootstrap failed: ${error}`));
    else w?.resolve(changes!);
  });
  const fail = (e: Error) => {
    if (state.__bootstrapThread === t) state.__bootstrapThread = undefined;
    for (const id of [...t.waiting.keys()]) settle(id)?.reject(e);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the bootstrap's thread stopped (exit code ${code})`)));
  worker.unref();
  state.__bootstrapThread = t;
  return t;
}

/** Each group's paired change (lib/domain/paired.ts's pairedChange), computed on the worker. */
export function pairedChangesOffThread(groups: RunGroup[]): Promise<PairedChange[]> {
  if (!groups.length) return Promise.resolve([]);
  const t = thread();
  const id = t.next++;
  return new Promise<PairedChange[]>((resolve, reject) => {
    t.waiting.set(id, { resolve, reject });
    t.worker.ref();
    t.worker.postMessage({ id, groups });
  });
}
