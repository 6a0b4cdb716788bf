// A study's preview: each stratum's pool, size and draw, and each annotator's load.
import type { Candidate, SampledItem } from "./sampling";

export type StratumRow = { stratum: string; pool: number; size: number; drawn: number };
export type DraftItem = { trajectoryId: number; stratum: string; position: number; annotators: string[] };

/** Every stratum of the pool with its size and how many of it were drawn, by stratum name. */
export function tallyStrata(
  pool: readonly Candidate[],
  drawn: readonly SampledItem[],
  sizeOf: (stratum: string) => number,
): StratumRow[] {
  const strata = new Map<string, StratumRow>();
  for (const c of pool) {
    const row = strata.get(c.stratum) ?? { stratum: c.stratum, pool: 0, size: sizeOf(c.stratum), drawn: 0 };
    row.pool++;
    strata.set(c.stratum, row);
  }
  for (const d of drawn) strata.get(d.stratum)!.drawn++;
  return [...strata.values()].sort((a, b) => a.stratum.localeCompare(b.stratum));
}

/** How many items each annotator gets, in the order the annotators were chosen (none: 0). */
export function annotatorLoad(
  items: readonly DraftItem[],
  annotators: readonly string[],
): Array<{ handle: string; items: number }> {
  const load = new Map<string, number>(annotators.map((h) => [h, 0]));
  for (const i of items) for (const h of i.annotators) load.set(h, (load.get(h) ?? 0) + 1);
  return [...load.entries()].map(([handle, n]) => ({ handle, items: n }));
}
