// Computations off the request thread: the same figures as computed in place, and a thread that
// dies fails only the work it held; the next call starts another.
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RunGroup } from "@/lib/domain/off-thread";
import { type PairedRun, pairedChange } from "@/lib/domain/paired";
import { prng } from "@/lib/domain/random";
import { VERDICTS } from "@/lib/domain/verdicts";
import { offThread } from "./compute-thread";

/** Groups of random runs: `tasks` tasks × 3 runs under each prompt, some unjudged or unresolved. */
function groups(seed: number, tasks = 30): RunGroup[] {
  const random = prng(seed);
  return ["m1", "m2"].map((model) => ({
    group: { benchmark: "b", model, network: random() < 0.5 },
    runs: Array.from({ length: tasks * 3 * 2 }, (_, i): PairedRun => {
      const pick = random();
      return {
        task: `t${Math.floor(i / 6)}`,
        run: i % 3,
        side: i % 6 < 3 ? "before" : "after",
        resolved: pick < 0.1 ? null : random() < 0.4,
        panel: pick > 0.9 ? null : VERDICTS[Math.floor(random() * VERDICTS.length)]!,
      };
    }),
  }));
}

const thread = () =>
  (globalThis as unknown as { __computeThread?: { worker: { terminate(): Promise<number> } } }).__computeThread;

describe("the computing thread", () => {
  it("gives each group's paired change as computed in place", async () => {
    const g = groups(7);
    expect(await offThread("pairedChanges", g)).toEqual(g.map((x) => pairedChange(x.group, x.runs)));
    expect(await offThread("pairedChanges", [])).toEqual([]);
  });

  it("fails the work of a thread that died, and starts another for the next", async () => {
    const g = groups(8);
    await offThread("pairedChanges", g);
    const first = thread();
    // Work long enough (4,000 tasks: hundreds of ms) to be under way when its thread is stopped.
    const held = offThread("pairedChanges", groups(9, 4000));
    await first!.worker.terminate();
    await expect(held).rejects.toThrow(/stopped/);
    expect(await offThread("pairedChanges", g)).toEqual(g.map((x) => pairedChange(x.group, x.runs)));
    expect(thread()).not.toBe(first);
  });

  it("starts in a process run from another folder (the command line runs from any)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const out = execFileSync(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        path.join(root, "node_modules/tsx/dist/esm/index.mjs"),
        path.join(root, "test/off-thread-elsewhere.ts"),
      ],
      { cwd: os.tmpdir(), env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, "tsconfig.json") } },
    );
    expect(out.toString().trim()).toBe("from elsewhere");
  });
});
