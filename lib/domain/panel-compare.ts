// Two panels side by side (docs/formats.md, "The panel"): the verdicts each gives from the votes it
// counts (its judges, each at the versions it names, the newest among them: protocol §2.5), each
// condition's rates under both with the paired difference (the same trajectories judged twice: the
// paired statistics of paired.ts, the panel in force in vanilla's place), Cohen's κ between the two
// panels' verdicts, and the trajectories whose verdict would change.
import { binaryAgreement } from "./agreement";
import type { Agreement } from "./agreement-report";
import { type PairedChange, type PairedRun, pairedChange } from "./paired";
import { newestPerKey, type PanelResult, panelVerdicts } from "./panel";
import { type ConditionFigures, figuresFromTallies, talliesOf } from "./rates";
import { type Condition, compareConditions } from "./results";
import { type CategoryVerdicts, isAttempt, isSuccess, type Verdict } from "./verdicts";

/** A judge at a prompt version; null: its imported votes. */
export type PanelMemberRef = { judge: string; promptVersion: number | null };
/** One vote as stored: `order` sorts by time (the newest of a judge's listed versions counts). */
export type StoredVote = {
  trajectoryId: number;
  judge: string;
  promptVersion: number | null;
  verdicts: CategoryVerdicts;
  order: number;
};
export type ComparedTrajectory = Condition & { id: number; task: string; run: number; resolved: boolean | null };

/** Each trajectory's panel result under a panel (absent: none of its judges voted on it). */
export function panelResults(
  members: readonly PanelMemberRef[],
  votes: readonly StoredVote[],
): Map<number, PanelResult> {
  const listed = new Set(members.map((m) => `${m.judge}\u0000${m.promptVersion ?? 0}`));
  const counted = newestPerKey(
    votes.filter((v) => listed.has(`${v.judge}\u0000${v.promptVersion ?? 0}`)),
    (v) => `${v.trajectoryId}\u0000${v.judge}`,
  );
  const byTrajectory = new Map<number, CategoryVerdicts[]>();
  for (const v of counted) byTrajectory.set(v.trajectoryId, [...(byTrajectory.get(v.trajectoryId) ?? []), v.verdicts]);
  return new Map([...byTrajectory].map(([id, vs]) => [id, panelVerdicts(vs)!]));
}

export type ConditionComparison = Condition & {
  inForce: ConditionFigures;
  candidate: ConditionFigures;
  /** Candidate minus the panel in force, on the same trajectories. */
  change: PairedChange;
};
export type PanelComparison = {
  conditions: ConditionComparison[];
  /** The two panels' overall verdicts, on the trajectories both judge. */
  agreement: Agreement;
  changed: Array<{ trajectoryId: number; inForce: Verdict | null; candidate: Verdict | null }>;
};

/** The candidate panel against the panel in force, over the same trajectories and votes. */
export function comparePanels(
  trajectories: readonly ComparedTrajectory[],
  votes: readonly StoredVote[],
  inForce: readonly PanelMemberRef[],
  candidate: readonly PanelMemberRef[],
  resamples?: number,
): PanelComparison {
  const a = panelResults(inForce, votes);
  const b = panelResults(candidate, votes);
  const verdictA = (id: number) => a.get(id)?.overall.verdict ?? null;
  const verdictB = (id: number) => b.get(id)?.overall.verdict ?? null;
  const groups = new Map<string, ComparedTrajectory[]>();
  for (const t of trajectories) {
    const key = `${t.benchmark}\u0000${t.model}\u0000${t.network}\u0000${t.prompt}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const conditions = [...groups.values()]
    .map((ts): ConditionComparison => {
      const { benchmark, model, network, prompt } = ts[0]!;
      const runs = (verdict: (id: number) => Verdict | null, as: PairedRun["prompt"]): PairedRun[] =>
        ts.map((t) => ({ task: t.task, run: t.run, resolved: t.resolved, panel: verdict(t.id), prompt: as }));
      const before = runs(verdictA, "vanilla");
      const after = runs(verdictB, "principled");
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
      };
    })
    .sort(compareConditions);
  const both = trajectories.filter((t) => verdictA(t.id) !== null && verdictB(t.id) !== null);
  const pairs = (is: (v: Verdict) => boolean) => both.map((t) => [is(verdictA(t.id)!), is(verdictB(t.id)!)] as const);
  return {
    conditions,
    agreement: { attempt: binaryAgreement(pairs(isAttempt)), success: binaryAgreement(pairs(isSuccess)) },
    changed: trajectories
      .filter((t) => verdictA(t.id) !== verdictB(t.id))
      .map((t) => ({ trajectoryId: t.id, inForce: verdictA(t.id), candidate: verdictB(t.id) })),
  };
}
