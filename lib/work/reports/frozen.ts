import "server-only";
// Frozen reports (decision 30): the result and agreement figures stored as they are, with the data's
// fingerprint, the judges and prompt versions, the app's version and the time; and read-only links
// to one report. A link is an unguessable token (32 random bytes) of which only the sha256 is kept;
// revoked or expired, it finds nothing, exactly as a token that never existed.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { type Actor, assertCan, can } from "@/lib/auth/permissions";
import type { EvidenceSummaryRow } from "@/lib/data/evidence-summary";
import { type PanelMember, panelsNow } from "@/lib/data/panels";
import { stoppedRules } from "@/lib/data/rules";
import { db } from "@/lib/db";
import type { AgreementReport } from "@/lib/domain/agreement-report";
import type { PairedChange } from "@/lib/domain/paired";
import type { ConditionResult } from "@/lib/domain/results";
import type { ResultsReport } from "@/lib/domain/results-tables";
import type { RuleHitsRow } from "@/lib/domain/rule-hits-table";
import { AppError } from "@/lib/errors";
import { ruleHitsCaughtUp } from "@/lib/work/rule-scan/scan";
import packageJson from "@/package.json" with { type: "json" };
import { agreementNow, changesNow, evidenceNow, resultsNow, ruleHitsNow } from "./cache";
import { REPORT_NAMES, type ReportName } from "./formats";

export type FrozenFigures = {
  results: ConditionResult[];
  changes: PairedChange[];
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

/** One digest per table, over the columns the figures read, in id order. */
const DIGESTS = {
  trajectories: `SELECT coalesce(string_agg(concat_ws('|', id, "benchmarkId", "modelId", "taskId", network, prompt, run,
    resolved, "panelVerdict", "panelUpstream", "panelLocalGit", "panelMemory", "panelOther"), E'\\n' ORDER BY id), '')
    AS text FROM trajectory`,
  votes: `SELECT coalesce(string_agg(concat_ws('|', id, "trajectoryId", "judgeId", "promptVersion", counted, overall,
    "parseStatus", "updatedAt"), E'\\n' ORDER BY id), '') AS text FROM judge_vote`,
  labels: `SELECT coalesce(string_agg(concat_ws('|', id, "trajectoryId", "annotatorId", "studyId", overall,
    "blindOverall", "updatedAt"), E'\\n' ORDER BY id), '') AS text FROM label`,
  gold: `SELECT coalesce(string_agg(concat_ws('|', id, "trajectoryId", "adjudicatorId", overall, "createdAt"),
    E'\\n' ORDER BY id), '') AS text FROM gold_label`,
} as const;

/**
 * The data's fingerprint: sha256 over the four tables' digests (trajectories, votes, labels, gold
 * labels). The same data give the same fingerprint; any change to what a figure reads changes it.
 */
export async function dataFingerprint(): Promise<string> {
  const hash = createHash("sha256");
  for (const [name, sql] of Object.entries(DIGESTS)) {
    const [row] = await db().$queryRawUnsafe<Array<{ text: string }>>(sql);
    hash.update(`${name}\n${createHash("sha256").update(row!.text).digest("hex")}\n`);
  }
  return hash.digest("hex");
}

async function judgesNow(): Promise<FrozenJudge[]> {
  const rows = await db().$queryRaw<Array<{ judge: string; votes: number; versions: number[] }>>`
    SELECT j.name AS judge, count(v.id)::int AS votes,
      coalesce(array_agg(DISTINCT r."promptVersion") FILTER (WHERE r."promptVersion" IS NOT NULL), '{}') AS versions
    FROM judge j JOIN judge_vote v ON v."judgeId" = j.id AND v.counted LEFT JOIN judge_request r ON r.id = v."requestId"
    GROUP BY j.name ORDER BY j.name`;
  return rows.map((r) => ({ judge: r.judge, votes: r.votes, promptVersions: [...r.versions].sort((a, b) => a - b) }));
}

const NameSchema = z.string().trim().min(1, "give the report a name").max(200);

/** Freezes the figures as they are now; answers the report's id. */
export async function freezeReport(actor: Actor, name: unknown): Promise<number> {
  assertCan(actor, "reports:write");
  const parsed = NameSchema.safeParse(name);
  if (!parsed.success) throw new AppError("BAD_INPUT", parsed.error.issues[0]!.message, "name");
  // Figures frozen for good count every trajectory: not while the rules' scan is under way.
  const coverage = await ruleHitsCaughtUp();
  if (coverage.unscanned)
    throw new AppError(
      "CONFLICT",
      `the rules have not yet read ${coverage.unscanned} of ${coverage.trajectories} trajectories (a rule just ` +
        "written, or trajectories just imported): freeze when their scan is done (the Rules page shows it)",
    );
  // The fingerprint first: figures computed after it are at least as new as it says.
  const fingerprint = await dataFingerprint();
  const [results, changes, evidence, rules, rulesLeftOut, agreement, judges, panels] = await Promise.all([
    resultsNow(),
    changesNow(),
    evidenceNow(),
    ruleHitsNow(),
    stoppedRules(),
    agreementNow(),
    judgesNow(),
    panelsNow(),
  ]);
  const inForce = panels.find((p) => p.inForce);
  const panel = inForce ? { name: inForce.name, judges: inForce.judges } : undefined;
  const figures: FrozenFigures = { results, changes, evidence, rules, rulesLeftOut, panel, agreement };
  const report = await db().frozenReport.create({
    data: {
      name: parsed.data,
      fingerprint,
      appVersion: packageJson.version,
      judges,
      figures: JSON.parse(JSON.stringify(figures)),
      createdById: actor.id,
    },
    select: { id: true },
  });
  return report.id;
}

const VIEW_SELECT = {
  id: true,
  name: true,
  fingerprint: true,
  appVersion: true,
  judges: true,
  figures: true,
  createdAt: true,
  createdBy: { select: { handle: true } },
} as const;

/** The stored result figures as the result tables take them. */
const frozenResults = (f: FrozenFigures): ResultsReport => ({
  conditions: f.results,
  changes: f.changes,
  evidence: f.evidence ?? [],
  rules: f.rules ?? [],
});

function view(r: {
  id: number;
  name: string;
  fingerprint: string;
  appVersion: string;
  judges: unknown;
  figures: unknown;
  createdAt: Date;
  createdBy: { handle: string } | null;
}): FrozenReportView {
  return {
    ...r,
    judges: r.judges as FrozenJudge[],
    figures: r.figures as FrozenFigures,
    results: frozenResults(r.figures as FrozenFigures),
    createdBy: r.createdBy?.handle ?? null,
  };
}

export async function getFrozenReport(actor: Actor, id: number): Promise<FrozenReportView | null> {
  assertCan(actor, "results:read");
  const r = await db().frozenReport.findUnique({ where: { id }, select: VIEW_SELECT });
  return r ? view(r) : null;
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

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");
/** A token as links carry it: 43 characters of base64url. Anything else finds nothing, unread. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new read-only link to a report, expiring after `days` if given; answers the token (shown once). */
export async function shareReport(actor: Actor, reportId: number, days: number | null): Promise<string> {
  assertCan(actor, "reports:write");
  if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= 3650))
    throw new AppError("BAD_INPUT", "expiry: a whole number of days from 1 to 3650, or none", "days");
  const exists = await db().frozenReport.findUnique({ where: { id: reportId }, select: { id: true } });
  if (!exists) throw new AppError("NOT_FOUND", "no such report");
  const token = randomBytes(32).toString("base64url");
  await db().reportLink.create({
    data: {
      reportId,
      tokenHash: tokenHash(token),
      hint: token.slice(0, 6),
      createdById: actor.id,
      expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000),
    },
  });
  return token;
}

export async function revokeLink(actor: Actor, linkId: number): Promise<string> {
  assertCan(actor, "reports:write");
  const done = await db().reportLink.updateMany({
    where: { id: linkId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (!done.count) throw new AppError("NOT_FOUND", "no such link, or revoked already");
  return "link revoked: it opens nothing now";
}

/** The report a token opens, or null (malformed, unknown, revoked or expired: all alike). */
export async function reportByToken(token: string): Promise<FrozenReportView | null> {
  if (!TOKEN.test(token)) return null;
  const link = await db().reportLink.findUnique({
    where: { tokenHash: tokenHash(token) },
    select: { revokedAt: true, expiresAt: true, report: { select: VIEW_SELECT } },
  });
  if (!link || link.revokedAt || (link.expiresAt && link.expiresAt.getTime() <= Date.now())) return null;
  return view(link.report);
}

/** Whether the live data differ from what the report was frozen from. */
export async function hasMoved(report: Pick<FrozenReportView, "fingerprint">): Promise<boolean> {
  return (await dataFingerprint()) !== report.fingerprint;
}

/** Whether `what` names a report a frozen report holds (results or agreement). */
export const isReportName = (what: string): what is ReportName => (REPORT_NAMES as readonly string[]).includes(what);

/** The file name a frozen report's downloads start with. */
export const frozenSlug = (report: FrozenReportView) => report.name.replace(/[^\w-]+/g, "-").slice(0, 60) || "report";
