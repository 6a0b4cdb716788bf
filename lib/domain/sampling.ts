// Annotation studies: a seeded, stratified sample assigned with overlap; the same inputs, the same draw.
import { prng, textSeed } from "./random";

/** A stratum key: "benchmark|model|network|prompt". */
export function stratumOf(c: { benchmark: string; model: string; network: boolean; prompt: string }): string {
  return `${c.benchmark}|${c.model}|${c.network ? "net" : "nonet"}|${c.prompt}`;
}

function shuffled<T>(items: readonly T[], seed: string): T[] {
  const out = [...items];
  const rand = prng(textSeed(seed));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export type Candidate = { id: number; stratum: string };
export type SampledItem = Candidate & { position: number };

/** Up to `size` a stratum by a shuffle seeded per stratum; positions interleave the strata. */
export function drawSample(
  candidates: readonly Candidate[],
  size: number | Readonly<Record<string, number>>,
  seed: string,
): SampledItem[] {
  const byStratum = new Map<string, Candidate[]>();
  for (const c of [...candidates].sort((a, b) => a.id - b.id))
    byStratum.set(c.stratum, [...(byStratum.get(c.stratum) ?? []), c]);
  const strata = [...byStratum.keys()].sort();
  const drawn = strata.map((s) =>
    shuffled(byStratum.get(s)!, `${seed}|${s}`).slice(0, Math.max(0, typeof size === "number" ? size : (size[s] ?? 0))),
  );
  const out: SampledItem[] = [];
  for (let round = 0; drawn.some((d) => d.length > round); round++) {
    for (const d of drawn) if (d[round]) out.push({ ...d[round]!, position: out.length });
  }
  return out;
}

/** Each item gets `overlap` annotators, round-robin in a seeded order (loads differ by at most one). */
export function assignAnnotators(
  items: readonly SampledItem[],
  annotators: readonly string[],
  overlap: number,
  seed: string,
): Map<number, string[]> {
  const people = shuffled([...new Set(annotators)].sort(), `${seed}|annotators`);
  if (overlap < 1 || overlap > people.length)
    throw new RangeError(`overlap must be between 1 and the number of annotators (${people.length})`);
  const out = new Map<number, string[]>();
  let next = 0;
  for (const item of [...items].sort((a, b) => a.position - b.position)) {
    const chosen: string[] = [];
    for (let k = 0; k < overlap; k++) chosen.push(people[(next + k) % people.length]!);
    next = (next + overlap) % people.length;
    out.set(item.id, chosen);
  }
  return out;
}
