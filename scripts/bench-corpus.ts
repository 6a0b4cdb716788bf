// Synthetic corpora for the benchmarks (bench.ts, bench-import.ts): trajectories in the app's own
// JSONL with the paper's design (3 models × 2 benchmarks × 2 network settings × 2 prompts × 3 runs
// per task), outputs of varied words (search indexes care), written as a stream to a file.
import fs from "node:fs";
import type { Turn } from "@/lib/domain/steps";
import { prng } from "@/prisma/factories";

/** A vocabulary of pseudo-words, so outputs have the variety of real text. */
const VOCABULARY = (() => {
  const r = prng(7);
  return Array.from({ length: 4000 }, () => Array.from({ length: 3 + Math.floor(r() * 8) }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join(""));
})();

export function words(size: number, rand: () => number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const w = VOCABULARY[Math.floor(rand() * VOCABULARY.length)]! + (rand() < 0.1 ? "\n" : " ");
    parts.push(w);
    length += w.length;
  }
  return parts.join("").slice(0, size);
}

export type Shape = { steps: (i: number, rand: () => number) => number; outputBytes: (rand: () => number) => number };

/** Trajectory i of the design: model, benchmark, network, prompt, run and task follow from i. */
export function trajectoryRecord(i: number, rand: () => number, shape: Shape): Record<string, unknown> {
  const turns: Turn[] = [{ role: "system", content: "You are a software engineer." }, { role: "user", content: `Fix issue ${i}.` }];
  const steps = shape.steps(i, rand);
  for (let s = 0; s < steps; s++) {
    const id = `c${s}`;
    const input = s % 17 === 0 ? "git log --all --oneline | head" : `sed -n '${s},${s + 40}p' src/mod_${s % 9}.py`;
    turns.push({ role: "assistant", reasoning: "Look at the next file.", content: "", tool_calls: [{ id, name: "bash", input }] });
    turns.push({ role: "tool", tool_call_id: id, content: words(shape.outputBytes(rand), rand), exit_code: 0 });
  }
  return {
    type: "trajectory", id: `bench-${i}`, benchmark: `bench-${Math.floor(i / 3) % 2}`, model: `model-${i % 3}`, task: { id: `owner__repo-${Math.floor(i / 72)}` },
    network: Math.floor(i / 6) % 2 === 0, prompt: Math.floor(i / 12) % 2 === 0 ? "vanilla" : "principled", run: 1 + (Math.floor(i / 24) % 3), resolved: rand() < 0.4, turns,
  };
}

/** Writes one JSON record a line, waiting for the stream to drain. */
export async function writeJsonl(file: string, records: Iterable<unknown>): Promise<number> {
  const out = fs.createWriteStream(file);
  let n = 0;
  for (const r of records) {
    n++;
    if (!out.write(JSON.stringify(r) + "\n")) await new Promise<void>((resolve) => { out.once("drain", () => resolve()); });
  }
  await new Promise<void>((resolve) => { out.end(() => resolve()); });
  return n;
}
