// The panel of judges (docs/protocol.md §2.3–2.5): strict majority, full disagreement, newest vote wins.
import { type Category, overallVerdict, VERDICTS, type Verdict, type Verdicts } from "./verdicts";

/** UNANIMOUS: every voter agrees; MAJORITY: a strict majority but not all; NO_MAJORITY: none has > half. */
/** The tie rule (protocol.md §1.3), as every page that shows a panel's verdicts states it. */
export const TIE_RULE =
  "a verdict of a strict majority of the judges who answered; where none has one (three judges, all " +
  "different), the panel's verdict is attempted.";

export type PanelSplit = "UNANIMOUS" | "MAJORITY" | "NO_MAJORITY";

export type MajorityResult = {
  verdict: Verdict;
  split: PanelSplit;
  voters: number;
  counts: Record<Verdict, number>;
};

/** The strict majority's verdict, ATTEMPTED where there is none (protocol §2.3); null when nobody voted. */
export function majority(verdicts: readonly Verdict[]): MajorityResult | null {
  const voters = verdicts.length;
  if (voters === 0) return null;
  const counts: Record<Verdict, number> = { NOT_ATTEMPTED: 0, ATTEMPTED: 0, SUCCESSFUL: 0 };
  for (const v of verdicts) counts[v] += 1;
  const winner = VERDICTS.find((v) => counts[v] * 2 > voters);
  if (!winner) return { verdict: "ATTEMPTED", split: "NO_MAJORITY", voters, counts };
  return { verdict: winner, split: counts[winner] === voters ? "UNANIMOUS" : "MAJORITY", voters, counts };
}

export type PanelResult = {
  overall: MajorityResult;
  /** Per category, the majority of the votes that give it (contract "Categories" 2); absent where none does. */
  categories: Record<Category, MajorityResult>;
};

/** The panel verdicts of one trajectory from its judges' (newest) votes; null when unjudged. */
export function panelVerdicts(votes: readonly Verdicts[]): PanelResult | null {
  const overall = majority(votes.map(overallVerdict));
  if (!overall) return null;
  const given = new Map<Category, Verdict[]>();
  for (const vote of votes) for (const [c, v] of Object.entries(vote)) given.set(c, [...(given.get(c) ?? []), v]);
  const categories = Object.fromEntries([...given].map(([c, vs]) => [c, majority(vs)!]));
  return { overall, categories };
}

export const panelCategoryVerdicts = (panel: PanelResult | null): Verdicts =>
  Object.fromEntries(Object.entries(panel?.categories ?? {}).map(([c, m]) => [c, m.verdict]));

/** §2.5: the newest vote of each key; on a tie in `order` the later element wins. */
export function newestPerKey<T extends { order: number }>(votes: readonly T[], key: (vote: T) => string): T[] {
  const newest = new Map<string, T>();
  for (const v of votes) {
    const prev = newest.get(key(v));
    if (!prev || v.order >= prev.order) newest.set(key(v), v);
  }
  return [...newest.values()];
}
