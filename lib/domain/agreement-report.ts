// The agreement figures of docs/protocol.md §4 from human labels: each label against its trajectory's
// panel verdict, overall and by condition, model and benchmark; each single judge against the
// humans; and, where trajectories have several labels, Krippendorff's alpha between annotators.
import { type BinaryAgreement, krippendorffAlphaNominal, verdictAgreement } from "./agreement";
import type { Verdict } from "./verdicts";

/** One human label (its newest form) on a trajectory, with what the judges said of it. */
export type LabelPoint = {
  trajectoryId: number;
  annotator: string;
  human: Verdict;
  /** The panel verdict; null when the trajectory is unjudged (such labels do not count). */
  panel: Verdict | null;
  /** Each judge's own overall verdict on the trajectory. */
  judges: Record<string, Verdict>;
  benchmark: string;
  model: string;
  network: boolean;
  prompt: "vanilla" | "principled";
  /** Edited in a blind study after the judges were shown (then `human` is the revised form). */
  revisedAfterUnblinding?: boolean;
  /** The trajectory's gold label in force, if any (for the gold cells' label lists). */
  gold?: Verdict | null;
};

export type Agreement = { attempt: BinaryAgreement; success: BinaryAgreement };

/** A trajectory's gold label in force, with the panel's and each judge's verdicts on it. */
export type GoldPoint = {
  trajectoryId: number;
  gold: Verdict;
  panel: Verdict | null;
  judges: Record<string, Verdict>;
  network: boolean;
  prompt: "vanilla" | "principled";
};

/**
 * Each rater against the gold labels (docs/formats.md, the agreement's `gold`): the gold label takes
 * the human's part (`human_only` = gold only). A rater counts on a trajectory with a gold label and
 * a verdict of theirs: the panel and each judge where judged, an annotator by their newest label.
 */
export type GoldAgreement = {
  panel: Agreement;
  /** The panel against the gold labels by network × prompt (an addition to docs/formats.md's object). */
  by_condition: Array<{ network: boolean; prompt: string } & Agreement>;
  judges: Array<{ judge: string } & Agreement>;
  annotators: Array<{ annotator: string } & Agreement>;
};

export type AgreementReport = {
  overall: Agreement;
  by_condition: Array<{ network: boolean; prompt: string } & Agreement>;
  by_model: Array<{ model: string } & Agreement>;
  by_benchmark: Array<{ benchmark: string } & Agreement>;
  judges: Array<{ judge: string } & Agreement>;
  inter_annotator: { alpha: number | null; units: number; labels: number };
  /** Null when there is no gold label. */
  gold: GoldAgreement | null;
  /** Labels revised after unblinding among those counted, and whether their first (blind) forms counted. */
  blind_revisions: { labels: number; first_forms: boolean };
};

function agreementOf(points: readonly LabelPoint[]): Agreement {
  return verdictAgreement(points.map((p) => ({ human: p.human, panel: p.panel! })));
}

function groupBy<K extends string>(points: readonly LabelPoint[], key: (p: LabelPoint) => K): Map<K, LabelPoint[]> {
  const groups = new Map<K, LabelPoint[]>();
  for (const p of points) groups.set(key(p), [...(groups.get(key(p)) ?? []), p]);
  return new Map([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

export function goldAgreement(gold: readonly GoldPoint[], labels: readonly LabelPoint[]): GoldAgreement | null {
  if (!gold.length) return null;
  const goldOf = new Map(gold.map((g) => [g.trajectoryId, g.gold]));
  const against = (pairs: ReadonlyArray<{ trajectoryId: number; rater: Verdict }>) =>
    verdictAgreement(
      pairs.flatMap((p) => {
        const g = goldOf.get(p.trajectoryId);
        return g ? [{ human: g, panel: p.rater }] : [];
      }),
    );
  const judges = [...new Set(gold.flatMap((g) => Object.keys(g.judges)))].sort();
  const annotators = [...new Set(labels.map((l) => l.annotator))].sort();
  const panelOf = (points: readonly GoldPoint[]) =>
    against(points.flatMap((g) => (g.panel ? [{ trajectoryId: g.trajectoryId, rater: g.panel }] : [])));
  const conditions = new Map<string, GoldPoint[]>();
  for (const g of gold.filter((x) => x.panel)) {
    const key = `${g.network ? "0" : "1"}|${g.prompt === "vanilla" ? "0" : "1"}`;
    conditions.set(key, [...(conditions.get(key) ?? []), g]);
  }
  return {
    panel: panelOf(gold),
    by_condition: [...conditions.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, ps]) => ({ network: ps[0]!.network, prompt: ps[0]!.prompt, ...panelOf(ps) })),
    judges: judges.map((judge) => ({
      judge,
      ...against(
        gold.flatMap((g) => (g.judges[judge] ? [{ trajectoryId: g.trajectoryId, rater: g.judges[judge] }] : [])),
      ),
    })),
    annotators: annotators.map((annotator) => ({
      annotator,
      ...against(
        labels.filter((l) => l.annotator === annotator).map((l) => ({ trajectoryId: l.trajectoryId, rater: l.human })),
      ),
    })),
  };
}

/** `firstForms`: the labels were read with their blind first forms where revised after unblinding. */
export function agreementReport(
  labels: readonly LabelPoint[],
  gold: readonly GoldPoint[] = [],
  firstForms = false,
): AgreementReport {
  const judged = labels.filter((p) => p.panel !== null);
  const byCondition = groupBy(judged, (p) => `${p.network ? "0" : "1"}|${p.prompt === "vanilla" ? "0" : "1"}`);
  const judgeNames = [...new Set(judged.flatMap((p) => Object.keys(p.judges)))].sort();
  // Inter-annotator agreement: every labelled trajectory, judged or not, with its labels' overall verdicts.
  const units = [...groupBy(labels, (p) => String(p.trajectoryId)).values()].map((ps) => ps.map((p) => p.human));
  const pairable = units.filter((u) => u.length >= 2);
  return {
    overall: agreementOf(judged),
    by_condition: [...byCondition.values()].map((ps) => ({
      network: ps[0]!.network,
      prompt: ps[0]!.prompt,
      ...agreementOf(ps),
    })),
    by_model: [...groupBy(judged, (p) => p.model).entries()].map(([model, ps]) => ({ model, ...agreementOf(ps) })),
    by_benchmark: [...groupBy(judged, (p) => p.benchmark).entries()].map(([benchmark, ps]) => ({
      benchmark,
      ...agreementOf(ps),
    })),
    judges: judgeNames.map((judge) => {
      const own = judged.filter((p) => p.judges[judge] !== undefined);
      return { judge, ...verdictAgreement(own.map((p) => ({ human: p.human, panel: p.judges[judge]! }))) };
    }),
    inter_annotator: {
      alpha: krippendorffAlphaNominal(pairable),
      units: pairable.length,
      labels: pairable.reduce((n, u) => n + u.length, 0),
    },
    gold: goldAgreement(gold, labels),
    blind_revisions: {
      labels: judged.filter((p) => p.revisedAfterUnblinding).length,
      first_forms: firstForms,
    },
  };
}
