// Protocol §4's agreement figures: labels against the panel and each judge, and α between annotators.
import { type Agreement, krippendorffAlphaNominal, verdictAgreement } from "./agreement";
import type { MonitorReport } from "./monitor-report";
import type { Verdict } from "./verdicts";

/** One human label (its newest form) on a trajectory, with what the judges said of it. */
export type LabelPoint = {
  trajectoryId: number;
  annotator: string;
  human: Verdict;
  panel: Verdict | null;
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

export type { Agreement };

/** A trajectory's gold label in force, with the panel's and each judge's verdicts on it. */
export type GoldPoint = {
  trajectoryId: number;
  gold: Verdict;
  panel: Verdict | null;
  judges: Record<string, Verdict>;
  network: boolean;
  prompt: "vanilla" | "principled";
};

/** Each rater against the gold labels, the gold label in the human's place, on trajectories both have. */
export type GoldAgreement = {
  panel: Agreement;
  /** The panel against the gold labels by network × prompt (an addition to docs/formats.md's object). */
  by_condition: Array<{ network: boolean; prompt: string } & Agreement>;
  judges: Array<{ judge: string } & Agreement>;
  annotators: Array<{ annotator: string } & Agreement>;
  /** Per category: the panel, each judge and each annotator against gold where both give it (frozen before: absent). */
  by_category?: GoldCategoryAgreement[];
};

export type GoldRater = "panel" | "judge" | "annotator";
export type GoldCategoryAgreement = { category: string; name: string; kind: GoldRater; rater: string } & Agreement;

export type AgreementReport = {
  overall: Agreement;
  by_condition: Array<{ network: boolean; prompt: string } & Agreement>;
  by_model: Array<{ model: string } & Agreement>;
  by_benchmark: Array<{ benchmark: string } & Agreement>;
  judges: Array<{ judge: string } & Agreement>;
  /** Per category, the labels and the panel where both give it a verdict (absent from reports frozen before). */
  by_category?: Array<{ category: string; name: string } & Agreement>;
  inter_annotator: { alpha: number | null; units: number; labels: number };
  gold: GoldAgreement | null;
  /** Labels revised after unblinding among those counted, and whether their first (blind) forms counted. */
  blind_revisions: { labels: number; first_forms: boolean };
  /** Every judge, panel and rule as a monitor against gold (absent from reports frozen before). */
  monitors?: MonitorReport;
};

/** `annotators`: whose rows the table has (by default everyone with a label in `labels`). */
export function goldAgreement(
  gold: readonly GoldPoint[],
  labels: readonly LabelPoint[],
  annotators: readonly string[] = [...new Set(labels.map((l) => l.annotator))],
): GoldAgreement | null {
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
  const panelOf = (points: readonly GoldPoint[]) =>
    against(points.flatMap((g) => (g.panel ? [{ trajectoryId: g.trajectoryId, rater: g.panel }] : [])));
  const conditions = new Map<string, GoldPoint[]>();
  for (const g of gold.filter((x) => x.panel)) {
    const key = `${g.network ? "0" : "1"}|${g.prompt === "vanilla" ? "0" : "1"}`;
    conditions
      .set(key, conditions.get(key) ?? [])
      .get(key)!
      .push(g);
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
    annotators: [...annotators].sort().map((annotator) => ({
      annotator,
      ...against(
        labels.filter((l) => l.annotator === annotator).map((l) => ({ trajectoryId: l.trajectoryId, rater: l.human })),
      ),
    })),
  };
}

/** What the report is computed from: the database's tallies and `countsOf` both go through agreementFromCounts. */
export type AgreementCounts = {
  /** Judged labels (panel not null) by condition, human and panel verdict, and revision after unblinding. */
  labels: Array<{
    benchmark: string;
    model: string;
    network: boolean;
    prompt: "vanilla" | "principled";
    human: Verdict;
    panel: Verdict;
    revised: boolean;
    count: number;
  }>;
  /** Judged labels beside each judge's own verdict on their trajectory. */
  judges: Array<{ judge: string; human: Verdict; verdict: Verdict; count: number }>;
  /** Trajectories with two labels or more (judged or not), by how many labels give each verdict. */
  units: Array<{ not_attempted: number; attempted: number; successful: number; count: number }>;
};

export function countsOf(points: readonly LabelPoint[]): AgreementCounts {
  const tally = <T extends { count: number }>(map: Map<string, T>, key: string, fresh: () => T) => {
    const row = map.get(key) ?? fresh();
    row.count += 1;
    map.set(key, row);
  };
  const labels = new Map<string, AgreementCounts["labels"][number]>();
  const judges = new Map<string, AgreementCounts["judges"][number]>();
  const perUnit = new Map<number, Record<Verdict, number>>();
  for (const p of points) {
    const unit = perUnit.get(p.trajectoryId) ?? { NOT_ATTEMPTED: 0, ATTEMPTED: 0, SUCCESSFUL: 0 };
    unit[p.human] += 1;
    perUnit.set(p.trajectoryId, unit);
    if (p.panel === null) continue;
    const { benchmark, model, network, prompt, human, panel } = p;
    const revised = !!p.revisedAfterUnblinding;
    tally(labels, JSON.stringify([benchmark, model, network, prompt, human, panel, revised]), () => ({
      ...{ benchmark, model, network, prompt, human, panel, revised },
      count: 0,
    }));
    for (const [judge, verdict] of Object.entries(p.judges))
      tally(judges, JSON.stringify([judge, human, verdict]), () => ({ judge, human, verdict, count: 0 }));
  }
  const units = new Map<string, AgreementCounts["units"][number]>();
  for (const u of perUnit.values()) {
    if (u.NOT_ATTEMPTED + u.ATTEMPTED + u.SUCCESSFUL < 2) continue;
    const shape = { not_attempted: u.NOT_ATTEMPTED, attempted: u.ATTEMPTED, successful: u.SUCCESSFUL };
    tally(units, JSON.stringify(shape), () => ({ ...shape, count: 0 }));
  }
  return { labels: [...labels.values()], judges: [...judges.values()], units: [...units.values()] };
}

/** Rows grouped by key, groups in the key's order (`localeCompare`, or `order`); appended to, not copied. */
function groupBy<T>(
  rows: readonly T[],
  key: (r: T) => string,
  order: (a: string, b: string) => number = (a, b) => a.localeCompare(b),
): Array<[string, T[]]> {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return [...groups.entries()].sort(([a], [b]) => order(a, b));
}

/** Units of equal shape in one order, whatever order they came in, so alpha comes out to the same bits. */
function unitValues(units: AgreementCounts["units"]): Verdict[][] {
  const sorted = [...units].sort(
    (a, b) => a.not_attempted - b.not_attempted || a.attempted - b.attempted || a.successful - b.successful,
  );
  return sorted.flatMap((u) => {
    const values: Verdict[] = [
      ...Array<Verdict>(u.not_attempted).fill("NOT_ATTEMPTED"),
      ...Array<Verdict>(u.attempted).fill("ATTEMPTED"),
      ...Array<Verdict>(u.successful).fill("SUCCESSFUL"),
    ];
    return Array.from({ length: u.count }, () => values);
  });
}

export function agreementFromCounts(
  counts: AgreementCounts,
  gold: GoldAgreement | null,
  firstForms: boolean,
): AgreementReport {
  const { labels } = counts;
  const byCondition = groupBy(labels, (p) => `${p.network ? "0" : "1"}|${p.prompt === "vanilla" ? "0" : "1"}`);
  const units = unitValues(counts.units);
  return {
    overall: verdictAgreement(labels),
    by_condition: byCondition.map(([, ps]) => ({
      network: ps[0]!.network,
      prompt: ps[0]!.prompt,
      ...verdictAgreement(ps),
    })),
    by_model: groupBy(labels, (p) => p.model).map(([model, ps]) => ({ model, ...verdictAgreement(ps) })),
    by_benchmark: groupBy(labels, (p) => p.benchmark).map(([benchmark, ps]) => ({
      benchmark,
      ...verdictAgreement(ps),
    })),
    // Judges in code-unit order, as the names have always been sorted.
    judges: groupBy(
      counts.judges,
      (j) => j.judge,
      (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    ).map(([judge, rows]) => ({ judge, ...verdictAgreement(rows.map((r) => ({ ...r, panel: r.verdict }))) })),
    inter_annotator: {
      alpha: krippendorffAlphaNominal(units),
      units: units.length,
      labels: units.reduce((n, u) => n + u.length, 0),
    },
    gold,
    blind_revisions: {
      labels: labels.reduce((n, p) => n + (p.revised ? p.count : 0), 0),
      first_forms: firstForms,
    },
  };
}

/** `firstForms`: the labels were read with their blind first forms where revised after unblinding. */
export function agreementReport(
  labels: readonly LabelPoint[],
  gold: readonly GoldPoint[] = [],
  firstForms = false,
): AgreementReport {
  return agreementFromCounts(countsOf(labels), goldAgreement(gold, labels), firstForms);
}

/** A category's label and panel verdicts on one trajectory, `count` times. */
export type CategoryPair = { category: string; name: string; human: Verdict; panel: Verdict; count: number };

/** Agreement in each category, in the pairs' order (contract "Categories" 4). */
export const agreementByCategory = (pairs: readonly CategoryPair[]): NonNullable<AgreementReport["by_category"]> =>
  groupBy(
    pairs,
    (p) => p.category,
    () => 0,
  ).map(([category, ps]) => ({
    category,
    name: ps[0]!.name,
    ...verdictAgreement(ps),
  }));

/** A category's gold verdict and one rater's on one trajectory, `count` times (`rater`: "" for the panel). */
export type GoldCategoryPair = CategoryPair & { kind: GoldRater; rater: string };

/** Each category's raters against gold, in the pairs' order (category, then panel, judges, annotators). */
export const goldByCategory = (pairs: readonly GoldCategoryPair[]): GoldCategoryAgreement[] =>
  groupBy(
    pairs,
    (p) => `${p.category}\u0000${p.kind}\u0000${p.rater}`,
    () => 0,
  ).map(([, ps]) => {
    const { category, name, kind, rater } = ps[0]!;
    return { category, name, kind, rater, ...verdictAgreement(ps) };
  });
