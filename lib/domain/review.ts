// Which trajectories need adjudicating, strongest disagreement first.
import type { Verdict } from "./verdicts";

export type Disagreement = { strength: 3 | 2 | 1; kind: "even split" | "uneven split" | "humans against the panel" };

export function disagreement(labels: readonly Verdict[], panel: Verdict | null): Disagreement | null {
  const counts = [...labels.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<Verdict, number>()).values()].sort(
    (a, b) => b - a,
  );
  if (counts.length >= 2)
    return counts[0] === counts[1] ? { strength: 3, kind: "even split" } : { strength: 2, kind: "uneven split" };
  if (counts.length === 1 && panel !== null && labels[0] !== panel)
    return { strength: 1, kind: "humans against the panel" };
  return null;
}

/** The review order: strongest first; among equals, those without a gold label, then by position. */
export function reviewOrder<T extends { strength: number; adjudicated: boolean; position: number }>(
  items: readonly T[],
): T[] {
  return [...items].sort(
    (a, b) => b.strength - a.strength || Number(a.adjudicated) - Number(b.adjudicated) || a.position - b.position,
  );
}
