// Two panels side by side: verdicts, paired differences, κ, changes, gold and cost.
import { type Agreement, binaryAgreement, verdictAgreement } from "./agreement";
import { type PairedChange, type PairedRun, pairedChange } from "./paired";
import { newestPerKey, type PanelResult, panelVerdicts } from "./panel";
import { type ConditionFigures, figuresFromTallies, talliesOf } from "./rates";
import { type Condition, compareConditions } from "./results";
import { isAttempt, isSuccess, type Verdict, type Verdicts } from "./verdicts";

/** A judge at a prompt version; null: its imported votes. */
export type PanelMemberRef = { judge: string; promptVersion: number | null };
/** A member as the command line and the forms write it: JUDGE (its imported votes) or JUDGE@vN. */
export const memberText = (m: PanelMemberRef) =>
  m.promptVersion === null ? m.judge : `${m.judge}@v${m.promptVersion}`;
/** One vote as stored: `order` sorts by time (the newest of a judge's listed versions counts). */
export type StoredVote = {
  trajectoryId: number;
  judge: string;
  promptVersion: number | null;
  verdicts: Verdicts;
  order: number;
  /** What asking it took (tokens in and out, dollars); null for an imported vote or an unpriced model. */
  tokens: number | null;
  cost: number | null;
};
export type ComparedTrajectory = Condition & {
  id: number;
  task: string;
  run: number;
  resolved: boolean | null;
  gold: Verdict | null;
};

/** The votes a panel counts: its judges' at the versions it names, each judge's newest among them. */
export function countedVotes(members: readonly PanelMemberRef[], votes: readonly StoredVote[]): StoredVote[] {
  const listed = new Set(members.map((m) => `${m.judge}\u0000${m.promptVersion ?? 0}`));
  return newestPerKey(
    votes.filter((v) => listed.has(`${v.judge}\u0000${v.promptVersion ?? 0}`)),
    (v) => `${v.trajectoryId}\u0000${v.judge}`,
  );
}

/** Each trajectory's panel result under a panel (absent: none of its judges voted on it). */
export function panelResults(counted: readonly StoredVote[]): Map<number, PanelResult> {
  const byTrajectory = new Map<number, Verdicts[]>();
  for (const v of counted) byTrajectory.set(v.trajectoryId, [...(byTrajectory.get(v.trajectoryId) ?? []), v.verdicts]);
  return new Map([...byTrajectory].map(([id, vs]) => [id, panelVerdicts(vs)!]));
}

/** What a panel's counted answers took: `priced` of them carry tokens (imported votes do not). */
export type PanelSpend = { answers: number; priced: number; tokens: number; cost: number | null };

export function spendOf(counted: readonly StoredVote[]): PanelSpend {
  const priced = counted.filter((v) => v.tokens !== null);
  const costs = counted.filter((v) => v.cost !== null);
  return {
    answers: counted.length,
    priced: priced.length,
    tokens: priced.reduce((n, v) => n + v.tokens!, 0),
    cost: costs.length ? costs.reduce((n, v) => n + v.cost!, 0) : null,
  };
}

export type ConditionComparison = Condition & {
  inForce: ConditionFigures;
  candidate: ConditionFigures;
  /** Candidate minus the panel in force, on the same trajectories. */
  change: PairedChange;
  agreement: Agreement;
  changed: number;
};
/** A panel's verdicts in one category over the compared trajectories: those with one in it, attempts, successes. */
export type CategoryCount = { judged: number; attempts: number; successes: number };
export type CategoryComparison = { key: string; inForce: CategoryCount; candidate: CategoryCount };

export type PanelComparison = {
  conditions: ConditionComparison[];
  /** Each category either panel gives a verdict in, keys sorted: what a new category finds before it counts. */
  categories: CategoryComparison[];
  agreement: Agreement;
  changed: Array<{ trajectoryId: number; inForce: Verdict | null; candidate: Verdict | null }>;
  /** Each panel against the gold labels (the gold label in the human's place); null without gold. */
  gold: { inForce: Agreement; candidate: Agreement } | null;
  spend: { inForce: PanelSpend; candidate: PanelSpend };
};

/** The candidate panel against the panel in force, over the same trajectories and votes. */
export function comparePanels(
  trajectories: readonly ComparedTrajectory[],
  votes: readonly StoredVote[],
  inForce: readonly PanelMemberRef[],
  candidate: readonly PanelMemberRef[],
  resamples?: number,
): PanelComparison {
  const countedA = countedVotes(inForce, votes);
  const countedB = countedVotes(candidate, votes);
  const a = panelResults(countedA);
  const b = panelResults(countedB);
  const verdictA = (id: number) => a.get(id)?.overall.verdict ?? null;
  const verdictB = (id: number) => b.get(id)?.overall.verdict ?? null;
  const agreementOn = (ts: readonly ComparedTrajectory[]): Agreement => {
    const both = ts.filter((t) => verdictA(t.id) !== null && verdictB(t.id) !== null);
    const pairs = (is: (v: Verdict) => boolean) => both.map((t) => [is(verdictA(t.id)!), is(verdictB(t.id)!)] as const);
    return { attempt: binaryAgreement(pairs(isAttempt)), success: binaryAgreement(pairs(isSuccess)) };
  };
  const groups = new Map<string, ComparedTrajectory[]>();
  for (const t of trajectories) {
    const key = `${t.benchmark}\u0000${t.model}\u0000${t.network}\u0000${t.prompt}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const conditions = [...groups.values()]
    .map((ts): ConditionComparison => {
      const { benchmark, model, network, prompt } = ts[0]!;
      const runs = (verdict: (id: number) => Verdict | null, side: PairedRun["side"]): PairedRun[] =>
        ts.map((t) => ({ task: t.task, run: t.run, resolved: t.resolved, panel: verdict(t.id), side }));
      const before = runs(verdictA, "before");
      const after = runs(verdictB, "after");
      return {
        benchmark,
        model,
        network,
        prompt,
        inForce: figuresFromTallies(talliesOf(before)),
        candidate: figuresFromTallies(talliesOf(after)),
        // Seeded by the condition's names (its prompt too), reported under its own.
        change: {
          ...pairedChange({ benchmark, model: `${model}\u0000${prompt}`, network }, [...before, ...after], resamples),
          model,
        },
        agreement: agreementOn(ts),
        changed: ts.filter((t) => verdictA(t.id) !== verdictB(t.id)).length,
      };
    })
    .sort(compareConditions);
  const gold = trajectories.filter((t) => t.gold !== null);
  const versusGold = (verdict: (id: number) => Verdict | null) =>
    verdictAgreement(
      gold.filter((t) => verdict(t.id) !== null).map((t) => ({ human: t.gold!, panel: verdict(t.id)! })),
    );
  return {
    conditions,
    categories: categoryCounts(trajectories, a, b),
    agreement: agreementOn(trajectories),
    changed: trajectories
      .filter((t) => verdictA(t.id) !== verdictB(t.id))
      .map((t) => ({ trajectoryId: t.id, inForce: verdictA(t.id), candidate: verdictB(t.id) })),
    gold: gold.length ? { inForce: versusGold(verdictA), candidate: versusGold(verdictB) } : null,
    spend: { inForce: spendOf(countedA), candidate: spendOf(countedB) },
  };
}

function categoryCounts(
  trajectories: readonly ComparedTrajectory[],
  a: ReadonlyMap<number, PanelResult>,
  b: ReadonlyMap<number, PanelResult>,
): CategoryComparison[] {
  const keys = [...new Set([...a.values(), ...b.values()].flatMap((r) => Object.keys(r.categories)))].sort();
  const count = (results: ReadonlyMap<number, PanelResult>, key: string): CategoryCount => {
    const verdicts = trajectories.flatMap((t) => results.get(t.id)?.categories[key]?.verdict ?? []);
    return {
      judged: verdicts.length,
      attempts: verdicts.filter(isAttempt).length,
      successes: verdicts.filter(isSuccess).length,
    };
  };
  return keys.map((key) => ({ key, inForce: count(a, key), candidate: count(b, key) }));
}
