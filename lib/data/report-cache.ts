import "server-only";
// The result table and the agreement figures, remembered until their inputs change. Trajectories
// change only through imports, votes through imports and judge runs, labels through imports and the
// labelling queue, gold labels through imports, so versions read from those tables name the data
// each report was computed from. The versions are read before computing: a report is never older
// than its key (docs/performance.md).
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db";
import type { AgreementReport } from "@/lib/domain/agreement-report";
import type { PairedChange } from "@/lib/domain/paired";
import type { ResultsReport } from "@/lib/domain/results-tables";
import type { RuleHitsRow } from "@/lib/domain/rule-hits-table";
import { type AgreementScope, getAgreement } from "./agreement";
import { PANEL_IN_FORCE } from "./derived";
import { type EvidenceSummaryRow, evidenceSummary } from "./evidence-summary";
import { getPairedChanges } from "./paired";
import { comparePanelsNamed, type PanelComparisonView } from "./panel-compare";
import { type ConditionResult, getResults } from "./results";
import { type RuleFigures, ruleFigures } from "./rule-figures";
import { getRuleHits } from "./rule-hits";

type Figures =
  | ConditionResult[]
  | PairedChange[]
  | EvidenceSummaryRow[]
  | RuleHitsRow[]
  | RuleFigures[]
  | AgreementReport
  | PanelComparisonView;
type Entry = Promise<Figures>;
/** One cache per database client (tests open one database per file). */
const caches = new WeakMap<object, LRUCache<string, Entry>>();
function cacheOf(): LRUCache<string, Entry> {
  const client = db();
  let c = caches.get(client);
  if (!c) caches.set(client, (c = new LRUCache<string, Entry>({ max: 8 })));
  return c;
}

async function importVersion(): Promise<string> {
  const [v] = await db().$queryRaw<Array<{ n: number; at: Date | null }>>`
    SELECT count(*)::int AS n, max("finishedAt") AS at FROM import WHERE status = 'SUCCEEDED'`;
  return `${v!.n}:${v!.at?.getTime() ?? 0}`;
}

async function labelVersion(): Promise<string> {
  const [v] = await db().$queryRaw<
    Array<{ n: number; at: Date | null }>
  >`SELECT count(*)::int AS n, max("updatedAt") AS at FROM label`;
  return `${v!.n}:${v!.at?.getTime() ?? 0}`;
}

/** Votes: a judge run writes them without an import; which count is the panel in force's. */
async function voteVersion(): Promise<string> {
  const [v] = await db().$queryRawUnsafe<Array<{ n: number; at: Date | null; panel: number | null }>>(
    `SELECT count(*)::int AS n, max("updatedAt") AS at, ${PANEL_IN_FORCE} AS panel FROM judge_vote`,
  );
  return `${v!.n}:${v!.at?.getTime() ?? 0}:${v!.panel ?? 0}`;
}

/** Rules change only by being written: their data version counts every transaction that did. */
async function rulesVersion(): Promise<string> {
  const [v] = await db().$queryRaw<Array<{ n: bigint }>>`SELECT n FROM data_version WHERE kind = 'rules'`;
  return String(v?.n ?? 0);
}

async function goldVersion(): Promise<string> {
  const [v] = await db().$queryRaw<Array<{ n: number; id: number | null }>>`
    SELECT count(*)::int AS n, max(id) AS id FROM gold_label`;
  return `${v!.n}:${v!.id ?? 0}`;
}

function remembered<T extends Figures>(key: string, compute: () => Promise<T>): Promise<T> {
  const cache = cacheOf();
  const hit = cache.get(key);
  if (hit) return hit as Promise<T>;
  const computing = compute();
  cache.set(key, computing);
  // A failed computation is not remembered.
  computing.catch(() => cache.delete(key));
  return computing;
}

export async function resultsNow(): Promise<ConditionResult[]> {
  const [imports, votes] = await Promise.all([importVersion(), voteVersion()]);
  return remembered(`results@${imports}|${votes}`, getResults);
}

/** The paired changes from vanilla to principled: from trajectories and votes, as the result table. */
export async function changesNow(): Promise<PairedChange[]> {
  const [imports, votes] = await Promise.all([importVersion(), voteVersion()]);
  return remembered(`changes@${imports}|${votes}`, getPairedChanges);
}

/** Per condition, what the task records show and how the panel judged it: from imports and votes. */
export async function evidenceNow(): Promise<EvidenceSummaryRow[]> {
  const [imports, votes] = await Promise.all([importVersion(), voteVersion()]);
  return remembered(`evidence@${imports}|${votes}`, evidenceSummary);
}

/** Per condition, the trajectories the rules in force fire on: from imports and rules. */
export async function ruleHitsNow(): Promise<RuleHitsRow[]> {
  const [imports, rules] = await Promise.all([importVersion(), rulesVersion()]);
  return remembered(`rules@${imports}|${rules}`, getRuleHits);
}

/** Each rule in force with its figures (the Rules page, `rules list`): from imports, votes, gold and rules. */
export async function ruleFiguresNow(): Promise<RuleFigures[]> {
  const versions = await Promise.all([importVersion(), voteVersion(), goldVersion(), rulesVersion()]);
  return remembered(`rule-figures@${versions.join("|")}`, ruleFigures);
}

/** The result table with its companions: every table the results page and its downloads show. */
export async function resultsReportNow(): Promise<ResultsReport> {
  const [conditions, changes, evidence, rules] = await Promise.all([
    resultsNow(),
    changesNow(),
    evidenceNow(),
    ruleHitsNow(),
  ]);
  return { conditions, changes, evidence, rules };
}

export async function agreementNow(scope: AgreementScope = {}): Promise<AgreementReport> {
  const versions = await Promise.all([importVersion(), voteVersion(), labelVersion(), goldVersion()]);
  const key = `agreement:${scope.studyId ?? "all"}:${scope.firstForms ? "first" : "newest"}@${versions.join("|")}`;
  return remembered(key, () => getAgreement(scope));
}

/**
 * Two panels compared (the compare page and its downloads). Saved panels never change, so their names
 * and the versions (the vote version names the panel in force, the default to compare with) key it.
 */
export async function comparisonNow(name: string, withName?: string): Promise<PanelComparisonView> {
  const versions = await Promise.all([importVersion(), voteVersion(), goldVersion()]);
  const key = `compare:${JSON.stringify([name, withName ?? null])}@${versions.join("|")}`;
  return remembered(key, () => comparePanelsNamed(name, withName));
}
