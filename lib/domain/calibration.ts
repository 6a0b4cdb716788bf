// Judge prompt versions against humans and gold: each judge and each version's panel, with what changed.
import { type BinaryAgreement, verdictAgreement } from "./agreement";
import { majority } from "./panel";
import type { Verdict } from "./verdicts";

export type LabelVerdict = { trajectoryId: number; human: Verdict };
export type VersionAnswer = { trajectoryId: number; judge: string; promptVersion: number; overall: Verdict };

export type CalibrationRow = {
  /** A judge, or null for the panel the version's judges would form. */
  judge: string | null;
  promptVersion: number;
  attempt: BinaryAgreement;
  success: BinaryAgreement;
  /** Trajectories whose verdict this version changed from the judge's previous version (judges only). */
  changed: number[];
  gold: { attempt: BinaryAgreement; success: BinaryAgreement } | null;
};

function agreementOf(labels: readonly LabelVerdict[], verdictOf: Map<number, Verdict>) {
  return verdictAgreement(
    labels.flatMap((l) => {
      const v = verdictOf.get(l.trajectoryId);
      return v ? [{ human: l.human, panel: v }] : [];
    }),
  );
}

/** `gold`: the gold labels in force, as verdicts playing the human's part. */
export function calibration(
  labels: readonly LabelVerdict[],
  answers: readonly VersionAnswer[],
  gold: readonly LabelVerdict[] = [],
): CalibrationRow[] {
  const againstGold = (verdicts: Map<number, Verdict>) => (gold.length ? agreementOf(gold, verdicts) : null);
  const rows: CalibrationRow[] = [];
  const versions = [...new Set(answers.map((a) => a.promptVersion))].sort((a, b) => a - b);
  const judges = [...new Set(answers.map((a) => a.judge))].sort();
  const byJudgeVersion = new Map<string, Map<number, Verdict>>();
  for (const a of answers) {
    const key = `${a.judge}\u0000${a.promptVersion}`;
    const m = byJudgeVersion.get(key) ?? new Map<number, Verdict>();
    m.set(a.trajectoryId, a.overall);
    byJudgeVersion.set(key, m);
  }
  for (const version of versions) {
    for (const judge of judges) {
      const own = byJudgeVersion.get(`${judge}\u0000${version}`);
      if (!own) continue;
      const earlier = versions.filter((v) => v < version && byJudgeVersion.has(`${judge}\u0000${v}`)).at(-1);
      const before = earlier === undefined ? null : byJudgeVersion.get(`${judge}\u0000${earlier}`)!;
      const changed = before
        ? [...own]
            .filter(([t, v]) => before.has(t) && before.get(t) !== v)
            .map(([t]) => t)
            .sort((a, b) => a - b)
        : [];
      rows.push({ judge, promptVersion: version, ...agreementOf(labels, own), changed, gold: againstGold(own) });
    }
    // The panel this version would form: the majority of the judges' answers under it, per trajectory.
    const perTrajectory = new Map<number, Verdict[]>();
    for (const judge of judges)
      for (const [t, v] of byJudgeVersion.get(`${judge}\u0000${version}`) ?? [])
        perTrajectory.set(t, [...(perTrajectory.get(t) ?? []), v]);
    const panel = new Map([...perTrajectory].map(([t, vs]) => [t, majority(vs)!.verdict]));
    rows.push({
      judge: null,
      promptVersion: version,
      ...agreementOf(labels, panel),
      changed: [],
      gold: againstGold(panel),
    });
  }
  return rows;
}
