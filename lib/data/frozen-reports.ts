import "server-only";
// Frozen reports (decision 30): the figures stored as they are, with the data's fingerprint and provenance.
import { createHash } from "node:crypto";
import { type Actor, assertCan, can } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import type { AgreementReport } from "@/lib/domain/agreement-report";
import type { McNemar, NetworkChange, PairedChange } from "@/lib/domain/paired";
import type { ConditionResult } from "@/lib/domain/results";
import type { ResultsReport } from "@/lib/domain/results-tables";
import type { RuleHitsRow } from "@/lib/domain/rule-hits-table";
import type { CategoryNames } from "@/lib/domain/verdicts";
import { categoryNames } from "./categories";
import type { EvidenceSummaryRow } from "./evidence-summary";
import type { PanelMember } from "./panels";
import { oneRow, statement } from "./sql";

export type FrozenFigures = {
  results: ConditionResult[];
  changes: PairedChange[];
  /** Absent from reports frozen before network on → off was kept. */
  network?: NetworkChange[];
  /** Absent from reports frozen before the evidence table was kept. */
  evidence?: EvidenceSummaryRow[];
  /** Absent from reports frozen before rules were data. */
  rules?: RuleHitsRow[];
  /** Enabled rules the scan had stopped for running past its limit: their hits are not in `rules`. */
  rulesLeftOut?: Array<{ name: string; failure: string }>;
  /** The panel the figures followed (absent from reports frozen before panels were chosen). */
  panel?: { name: string; judges: PanelMember[] };
  agreement: AgreementReport;
};

export type FrozenJudge = { judge: string; votes: number; promptVersions: number[] };
export type FrozenReportView = {
  id: number;
  name: string;
  fingerprint: string;
  appVersion: string;
  judges: FrozenJudge[];
  figures: FrozenFigures;
  /** The stored result figures as the result tables take them. */
  results: ResultsReport;
  createdAt: Date;
  createdBy: string | null;
};

/** The panel's verdicts in the categories' order, joined by '|' as the columns of each were before (decision 52). */
const PANEL_TEXT = `(SELECT string_agg(e.value, '|' ORDER BY c.rank, e.key) FROM jsonb_each_text(t."panelCategories") e
    LEFT JOIN (SELECT key, min(rank) AS rank FROM category GROUP BY key) c ON c.key = e.key)`;

/** One digest per table, over the columns the figures read, in id order. */
const DIGESTS = {
  trajectories: `SELECT coalesce(string_agg(concat_ws('|', id, "benchmarkId", "modelId", "taskId", network, prompt, run,
    resolved, "panelVerdict", ${PANEL_TEXT}), E'\\n' ORDER BY id), '') AS text FROM trajectory t`,
  votes: `SELECT coalesce(string_agg(concat_ws('|', id, "trajectoryId", "judgeId", "promptVersion", counted, overall,
    "parseStatus", "updatedAt"), E'\\n' ORDER BY id), '') AS text FROM judge_vote`,
  labels: `SELECT coalesce(string_agg(concat_ws('|', id, "trajectoryId", "annotatorId", "studyId", overall,
    "blindOverall", "updatedAt"), E'\\n' ORDER BY id), '') AS text FROM label`,
  gold: `SELECT coalesce(string_agg(concat_ws('|', id, "trajectoryId", "adjudicatorId", overall, "createdAt"),
    E'\\n' ORDER BY id), '') AS text FROM gold_label`,
} as const;

/** sha256 over the digests of trajectories, votes, labels and gold labels: any change a figure reads changes it. */
export async function dataFingerprint(): Promise<string> {
  const hash = createHash("sha256");
  for (const [name, sql] of Object.entries(DIGESTS)) {
    const { text } = await oneRow<{ text: string }>(sql);
    hash.update(`${name}\n${createHash("sha256").update(text).digest("hex")}\n`);
  }
  return hash.digest("hex");
}

/** The judges whose votes count now, with their votes and the prompt versions they were asked under. */
export async function countedJudges(): Promise<FrozenJudge[]> {
  const rows = await statement<{ judge: string; votes: number; versions: number[] }>(`
    SELECT j.name AS judge, count(v.id)::int AS votes,
      coalesce(array_agg(DISTINCT r."promptVersion") FILTER (WHERE r."promptVersion" IS NOT NULL), '{}') AS versions
    FROM judge j JOIN judge_vote v ON v."judgeId" = j.id AND v.counted LEFT JOIN judge_request r ON r.id = v."requestId"
    GROUP BY j.name ORDER BY j.name`);
  return rows.map((r) => ({ judge: r.judge, votes: r.votes, promptVersions: [...r.versions].sort((a, b) => a - b) }));
}

export async function insertFrozenReport(r: {
  name: string;
  fingerprint: string;
  appVersion: string;
  judges: FrozenJudge[];
  figures: FrozenFigures;
  createdById: string;
}): Promise<number> {
  const report = await db().frozenReport.create({
    data: { ...r, figures: JSON.parse(JSON.stringify(r.figures)) },
    select: { id: true },
  });
  return report.id;
}

export const VIEW_SELECT = {
  id: true,
  name: true,
  fingerprint: true,
  appVersion: true,
  judges: true,
  figures: true,
  createdAt: true,
  createdBy: { select: { handle: true } },
} as const;

/** McNemar's yes counts as reports frozen before network on → off stored them: named for the prompts. */
type StoredMcNemar = McNemar & { vanilla_yes?: number; principled_yes?: number };
const sidesNamed = (c: PairedChange): PairedChange => ({
  ...c,
  mcnemar: Object.fromEntries(
    Object.entries(c.mcnemar as Record<string, StoredMcNemar>).map(([k, { vanilla_yes, principled_yes, ...m }]) => [
      k,
      { ...m, before_yes: m.before_yes ?? vanilla_yes!, after_yes: m.after_yes ?? principled_yes! },
    ]),
  ) as PairedChange["mcnemar"],
});

/** Categories as reports frozen before they were data stored them: every judged trajectory had a verdict in each. */
type OldCategories = { judged: number; attempts: Record<string, number>; successes: Record<string, number> };
const categoriesNamed = (
  stored: ConditionResult["categories"] | OldCategories,
  names: CategoryNames,
): ConditionResult["categories"] => {
  const old = Array.isArray(stored) ? null : (stored as OldCategories);
  const list: ConditionResult["categories"] = old
    ? Object.keys(old.attempts).map((key) => ({
        key,
        judged: old.judged,
        attempts: old.attempts[key]!,
        successes: old.successes[key]!,
      }))
    : (stored as ConditionResult["categories"]);
  return list.map((c) => ({ ...c, name: c.name ?? names[c.key] ?? c.key }));
};

/** The stored result figures as the result tables take them; names a report did not keep are today's. */
const frozenResults = (f: FrozenFigures, names: CategoryNames): ResultsReport => ({
  conditions: f.results.map((r) => ({ ...r, categories: categoriesNamed(r.categories, names) })),
  changes: f.changes.map(sidesNamed),
  network: f.network ?? [],
  evidence: f.evidence ?? [],
  rules: (f.rules ?? []).map((r) => ({ ...r, names: r.names ?? names })),
});

export function view(
  r: {
    id: number;
    name: string;
    fingerprint: string;
    appVersion: string;
    judges: unknown;
    figures: unknown;
    createdAt: Date;
    createdBy: { handle: string } | null;
  },
  names: CategoryNames,
): FrozenReportView {
  return {
    ...r,
    judges: r.judges as FrozenJudge[],
    figures: r.figures as FrozenFigures,
    results: frozenResults(r.figures as FrozenFigures, names),
    createdBy: r.createdBy?.handle ?? null,
  };
}

export async function getFrozenReport(actor: Actor, id: number): Promise<FrozenReportView | null> {
  assertCan(actor, "results:read");
  return readFrozenReport(id);
}

/** A frozen report by id, for a caller that has checked its reader (the command line holds the database). */
export async function readFrozenReport(id: number): Promise<FrozenReportView | null> {
  const r = await db().frozenReport.findUnique({ where: { id }, select: VIEW_SELECT });
  return r ? view(r, await categoryNames()) : null;
}

export type ReportLinkRow = {
  id: number;
  hint: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdBy: string | null;
};
export type FrozenReportRow = {
  id: number;
  name: string;
  fingerprint: string;
  createdAt: Date;
  createdBy: string | null;
  links: ReportLinkRow[];
};

export async function listFrozenReports(actor: Actor): Promise<FrozenReportRow[]> {
  assertCan(actor, "results:read");
  const writer = can(actor.role, "reports:write");
  const rows = await db().frozenReport.findMany({
    orderBy: { id: "desc" },
    select: {
      id: true,
      name: true,
      fingerprint: true,
      createdAt: true,
      createdBy: { select: { handle: true } },
      links: {
        orderBy: { id: "desc" },
        select: {
          id: true,
          hint: true,
          createdAt: true,
          expiresAt: true,
          revokedAt: true,
          createdBy: { select: { handle: true } },
        },
      },
    },
  });
  return rows.map((r) => ({
    ...r,
    createdBy: r.createdBy?.handle ?? null,
    // Who may share sees the links; a reviewer sees the reports only.
    links: writer ? r.links.map((l) => ({ ...l, createdBy: l.createdBy?.handle ?? null })) : [],
  }));
}

/** Whether the live data differ from what the report was frozen from. */
export async function hasMoved(report: Pick<FrozenReportView, "fingerprint">): Promise<boolean> {
  return (await dataFingerprint()) !== report.fingerprint;
}

/** The file name a frozen report's downloads start with. */
export const frozenSlug = (report: FrozenReportView) => report.name.replace(/[^\w-]+/g, "-").slice(0, 60) || "report";
