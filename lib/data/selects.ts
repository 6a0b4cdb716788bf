import "server-only";
// Parts of Prisma selects that several reads share, named once.

/** A trajectory's condition: benchmark, model, network, prompt, run and resolved status. */
export const CONDITION_SELECT = {
  network: true,
  prompt: true,
  run: true,
  resolved: true,
  benchmark: { select: { name: true } },
  model: { select: { name: true } },
} as const;

/** The panel's verdicts a trajectory stores (lib/data/derived.ts). */
export const PANEL_SELECT = {
  panelVerdict: true,
  panelSplit: true,
  panelCategories: true,
} as const;

/** A vote's or label's verdict in each category it gives (key → verdict). */
export const VERDICT_SELECT = { verdicts: true } as const;

/** What names a trajectory by its natural key. */
export const KEY_SELECT = {
  network: true,
  prompt: true,
  run: true,
  benchmark: { select: { name: true } },
  model: { select: { name: true } },
  task: { select: { key: true } },
} as const;

/** A trajectory's natural key from what KEY_SELECT reads. */
export function naturalKeyOf<P extends string>(t: {
  network: boolean;
  prompt: P;
  run: number;
  benchmark: { name: string };
  model: { name: string };
  task: { key: string };
}) {
  return {
    benchmark: t.benchmark.name,
    model: t.model.name,
    task: t.task.key,
    network: t.network,
    prompt: t.prompt,
    run: t.run,
  };
}

/** How the app asked for a vote (null for an imported one). */
export const ASKED_SELECT = {
  promptVersion: true,
  model: true,
  temperature: true,
  maxTokens: true,
  tokensIn: true,
  tokensOut: true,
  ms: true,
  cost: true,
  truncated: true,
  cutChars: true,
  answeredAt: true,
} as const;

/** What a queue item's timeline shows of its trajectory (components/timeline/item-timeline.tsx). */
export const ITEM_TRAJECTORY_SELECT = {
  id: true,
  ...CONDITION_SELECT,
  patch: true,
  stepCount: true,
  sourceFormat: true,
  task: { select: { key: true, repo: true, baseCommit: true } },
} as const;

/** A person's verdict as shown beside others: the four verdicts, the overall one, cited steps, note. */
export const PERSON_VERDICT_FIELDS = { ...VERDICT_SELECT, overall: true, evidence: true, note: true } as const;
