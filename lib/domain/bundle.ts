// A published study (a bundle): what it holds of each trajectory, who is named how, the figures made private.
import type { AgreementReport } from "./agreement-report";

export const BUNDLE_CHOICES = ["counted", "flagged", "none"] as const;
export type BundleChoice = (typeof BUNDLE_CHOICES)[number];

/** A trajectory as the bundle's list shows it; `n` its number in the bundle (no internal id leaves). */
export type BundleTrajectoryRow = {
  n: number;
  benchmark: string;
  model: string;
  task: string;
  network: boolean;
  prompt: string;
  run: number;
  resolved: boolean | null;
  steps: number;
  panel: string | null;
  split: string | null;
  gold: string | null;
  suspect: number;
};

export type BundleCall = { name: string; input: string; inputLength: number };
export type BundleStep = {
  step: number;
  role: string;
  content: string;
  contentLength: number;
  reasoning: string | null;
  reasoningLength: number;
  exitCode: number | null;
  calls: BundleCall[];
};
type Cited = { step: number; category: string | null; note: string | null };

export type BundleTrajectory = BundleTrajectoryRow & {
  patch: string | null;
  patchLength: number;
  similarity: number | null;
  categories: Record<string, string>;
  votes: Array<{
    judge: string;
    promptVersion: number | null;
    counted: boolean;
    overall: string | null;
    verdicts: Record<string, string>;
    parseStatus: string;
    rationale: string | null;
    evidence: Cited[];
  }>;
  goldLabel: {
    by: string;
    verdicts: Record<string, string>;
    overall: string;
    note: string | null;
    evidence: Cited[];
  } | null;
  evidence: Array<{ kind: string; step: number; category: string | null; detail: string }>;
  marks: Array<{ step: number; rule: string; category: string; why: string }>;
  messages: BundleStep[];
};

/** Whether a trajectory goes in: every one the report counts, or those the panel flags (not NOT_ATTEMPTED). */
export const bundled = (choice: BundleChoice, row: Pick<BundleTrajectoryRow, "panel">): boolean =>
  choice === "counted" ? true : choice === "flagged" ? row.panel !== null && row.panel !== "NOT_ATTEMPTED" : false;

/** People as the bundle names them: `annotator 1`, `annotator 2` … in the order of their names, or by name. */
export function personNames(handles: Iterable<string>, byName: boolean): Map<string, string> {
  const sorted = [...new Set(handles)].sort();
  return new Map(sorted.map((h, i) => [h, byName ? h : `annotator ${i + 1}`]));
}

/** The agreement figures with people named as the bundle names them and trajectories by their number. */
export function privateAgreement(
  r: AgreementReport,
  person: (handle: string) => string,
  number: (trajectoryId: number) => number | undefined,
): AgreementReport {
  const gold = r.gold && {
    ...r.gold,
    annotators: r.gold.annotators.map((a) => ({ ...a, annotator: person(a.annotator) })),
    ...(r.gold.by_category
      ? { by_category: r.gold.by_category.map((c) => (c.kind === "annotator" ? { ...c, rater: person(c.rater) } : c)) }
      : {}),
  };
  const monitors = r.monitors && {
    ...r.monitors,
    rows: r.monitors.rows.map((row) =>
      row.scores
        ? {
            ...row,
            scores: row.scores.flatMap(([id, s, p]) =>
              number(id) ? [[number(id)!, s, p] as (typeof row.scores)[0]] : [],
            ),
          }
        : row,
    ),
  };
  return { ...r, gold, ...(monitors ? { monitors } : {}) };
}

/** Trajectory N's file (`t/`) or task record K's (`k/`), a thousand to a folder (the viewer finds them so). */
const sharded = (kind: "t" | "k", n: number) => `${kind}/${String(Math.floor(n / 1000)).padStart(3, "0")}/${n}.js`;
export const trajectoryFile = (n: number) => sharded("t", n);
export const taskFile = (k: number) => sharded("k", k);
