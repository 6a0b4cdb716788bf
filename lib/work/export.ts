import "server-only";
// The database back out as the app's own records: imported into an empty database, the same data.
import { categoryVersions } from "@/lib/data/categories";
import { voteVerdicts } from "@/lib/data/derived";
import { countedVotePages, goldPages, labelPages, storedTurns, trajectoryPages } from "@/lib/data/export-reads";
import { ruleVersions } from "@/lib/data/rules";
import { naturalKeyOf } from "@/lib/data/selects";
import { transaction } from "@/lib/data/sql";
import { evidenceReport } from "@/lib/data/trajectory-evidence";
import { categoryRecord } from "@/lib/domain/categories";
import { ruleRecord } from "@/lib/domain/rules";

/** `only`: one trajectory's (by its id in the database), as the API's trajectory route answers it. */
export async function* exportTrajectories(only?: number): AsyncGenerator<Record<string, unknown>> {
  const trajectories = trajectoryPages(only);
  for await (const t of trajectories) {
    const turns = await storedTurns(t.id);
    yield {
      type: "trajectory",
      ...(t.externalId !== null ? { id: t.externalId } : {}),
      benchmark: t.benchmark.name,
      model: t.model.name,
      task: { id: t.task.key, repo: t.task.repo, base_commit: t.task.baseCommit, language: t.task.language },
      network: t.network,
      prompt: t.prompt,
      run: t.run,
      resolved: t.resolved,
      patch: t.patch,
      turns,
      metadata: t.metadata,
    };
  }
}

export async function* exportVotes(only?: number): AsyncGenerator<Record<string, unknown>> {
  const votes = countedVotePages(only);
  for await (const v of votes) {
    const a = v.request;
    yield {
      type: "judge_vote",
      trajectory: naturalKeyOf(v.trajectory),
      judge: v.judge.name,
      // Verdicts read from the raw answer go out as the raw answer, so an import parses them again.
      ...(v.parseStatus === "GIVEN" ? { verdicts: voteVerdicts(v) } : {}),
      ...(v.confidence ? { confidence: v.confidence } : {}),
      rationale: v.rationale,
      evidence: v.evidence,
      raw: v.raw ?? (v.parseStatus === "UNPARSEABLE" ? "" : null),
      created_at: v.votedAt.toISOString(),
      // A vote the app asked for says how (an addition to docs/formats.md's record; importing ignores it).
      ...(a
        ? {
            asked: {
              prompt_version: a.promptVersion,
              model: a.model,
              temperature: a.temperature,
              max_tokens: a.maxTokens,
              tokens_in: a.tokensIn,
              tokens_out: a.tokensOut,
              ms: a.ms,
              cost: a.cost,
              truncated: a.truncated,
              cut_chars: a.cutChars,
            },
          }
        : {}),
    };
  }
}

function personVerdict(
  row: {
    evidence: unknown;
    note: string | null;
    madeWith: string | null;
    trajectory: Parameters<typeof naturalKeyOf>[0];
  } & Parameters<typeof voteVerdicts>[0],
  at: Date,
) {
  return {
    trajectory: naturalKeyOf(row.trajectory),
    verdicts: voteVerdicts(row),
    evidence: row.evidence,
    note: row.note,
    created_at: at.toISOString(),
    // Absent for what was made before the app recorded it (its forms then opened on "not attempted").
    ...(row.madeWith ? { made_with: row.madeWith } : {}),
  };
}

export async function* exportLabels(only?: number): AsyncGenerator<Record<string, unknown>> {
  const labels = labelPages(only);
  for await (const l of labels)
    yield { type: "label", annotator: l.annotator.handle, ...personVerdict(l, l.updatedAt) };
}

/** Every version of every gold label (the newest on a trajectory is in force), oldest first. */
export async function* exportGold(only?: number): AsyncGenerator<Record<string, unknown>> {
  const gold = goldPages(only);
  for await (const g of gold)
    yield { type: "gold", adjudicator: g.adjudicator.handle, ...personVerdict(g, g.createdAt) };
}

/** Every version of every category (the newest of each key is in force), in the table's order, oldest first. */
export async function* exportCategories(): AsyncGenerator<Record<string, unknown>> {
  for (const c of await transaction((sql) => categoryVersions(sql))) yield categoryRecord(c);
}

/** Every version of every rule (the newest of each name is in force), by name, oldest first. */
export async function* exportRules(): AsyncGenerator<Record<string, unknown>> {
  for (const r of await transaction((sql) => ruleVersions(sql))) yield ruleRecord(r);
}

async function collect<T>(records: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of records) out.push(r);
  return out;
}

/** One trajectory as `export` writes it, with counted votes, labels, gold versions and evidence; null if none. */
export async function trajectoryWithVerdicts(id: number): Promise<Record<string, unknown> | null> {
  const [trajectory] = await collect(exportTrajectories(id));
  if (!trajectory) return null;
  const [votes, labels, gold, evidence] = await Promise.all([
    collect(exportVotes(id)),
    collect(exportLabels(id)),
    collect(exportGold(id)),
    evidenceReport(id),
  ]);
  const found = evidence[0];
  return {
    trajectory,
    votes,
    labels,
    gold,
    evidence: found ? { patch_similarity: found.patch_similarity, items: found.items } : null,
  };
}

export const EXPORTS = {
  trajectories: [exportTrajectories],
  votes: [exportVotes],
  labels: [exportLabels],
  gold: [exportGold],
  rules: [exportRules],
  categories: [exportCategories],
  all: [exportCategories, exportTrajectories, exportVotes, exportLabels, exportGold, exportRules],
} as const;
