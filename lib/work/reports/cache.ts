import "server-only";
// The reports' figures kept under the versions of the data they show (decision 38).
import { LRUCache } from "lru-cache";
import { type AgreementScope, readAgreement } from "@/lib/data/agreement";
import { type Kind, versionKey } from "@/lib/data/data-version";
import { type EvidenceSummaryRow, evidenceSummary } from "@/lib/data/evidence-summary";
import { readPairedChanges } from "@/lib/data/paired";
import { comparePanelsNamed, type PanelComparisonView } from "@/lib/data/panel-compare";
import { type ConditionResult, readResults } from "@/lib/data/results";
import { getRuleHits } from "@/lib/data/rule-hits";
import { statement } from "@/lib/data/sql";
import { foldTallies, type Tally } from "@/lib/data/tallies";
import { db } from "@/lib/db";
import { currentScope } from "@/lib/db/scope";
import type { AgreementReport } from "@/lib/domain/agreement-report";
import type { NetworkChange, PairedChange } from "@/lib/domain/paired";
import { benchmarkTables, type ResultsReport } from "@/lib/domain/results-tables";
import type { RuleHitsRow } from "@/lib/domain/rule-hits-table";
import { type RuleFigures, ruleFigures } from "@/lib/work/rule-figures";
import { ruleHitsCaughtUp } from "@/lib/work/rule-scan/scan";

type Figures =
  | ConditionResult[]
  | { prompt: PairedChange[]; network: NetworkChange[] }
  | EvidenceSummaryRow[]
  | RuleHitsRow[]
  | RuleFigures[]
  | AgreementReport
  | PanelComparisonView;
/** A report's figures as last computed, and the computation of newer ones under way. */
type Slot = { key: string; figures: Figures | null; computing: { key: string; figures: Promise<Figures> } | null };
/** One cache per database client (tests open one database per file). */
const caches = new WeakMap<object, LRUCache<string, Slot>>();
function cacheOf(): LRUCache<string, Slot> {
  const client = db();
  let c = caches.get(client);
  if (!c) caches.set(client, (c = new LRUCache<string, Slot>({ max: 64 })));
  return c;
}

/** The versions a report shows, read before computing, so a report is never older than its key. */
const versionsOf = (kinds: Kind[]) => versionKey(kinds, (text, k) => statement(text, [k]));

/** The figures of `report` as the data stand, or the last ones while newer are computed (decision 38). */
export async function remembered<T extends Figures>(
  report: string,
  kinds: Kind[],
  compute: () => Promise<T>,
): Promise<T> {
  const key = await versionsOf(kinds);
  const cache = cacheOf();
  const slot = cache.get(report) ?? { key: "", figures: null, computing: null };
  cache.set(report, slot);
  if (slot.figures !== null && slot.key === key) return slot.figures as T;
  if (slot.computing?.key === key) return slot.computing.figures as Promise<T>;
  if (slot.computing && slot.figures !== null) return slot.figures as T;
  const figures = compute();
  if (slot.computing) return figures; // the first figures of all, with an older computation under way
  slot.computing = { key, figures };
  const settle = () => {
    if (slot.computing?.figures === figures) slot.computing = null;
  };
  figures.then((f) => {
    Object.assign(slot, { key, figures: f });
    settle();
  }, settle);
  return figures;
}

export async function resultsNow(): Promise<ConditionResult[]> {
  return remembered("results", ["trajectories", "votes"], async () => {
    const { results, deltas } = await readResults();
    foldIfMany("results", deltas);
    return results;
  });
}

/** The paired changes from vanilla to principled: from trajectories and votes, as the result table. */
const pairedNow = () => remembered("paired", ["trajectories", "votes"], readPairedChanges);
export const changesNow = async (): Promise<PairedChange[]> => (await pairedNow()).prompt;

/** The paired changes from network on to off: from trajectories and votes, as the result table. */
export const networkNow = async (): Promise<NetworkChange[]> => (await pairedNow()).network;

/** Per condition, what the task records show and how the panel judged it: from trajectories and votes. */
export async function evidenceNow(): Promise<EvidenceSummaryRow[]> {
  return remembered("evidence", ["trajectories", "votes"], evidenceSummary);
}

/** Per condition, the trajectories the rules in force fire on: from trajectories, rules and their kept hits. */
export async function ruleHitsNow(): Promise<RuleHitsRow[]> {
  await ruleHitsCaughtUp();
  return remembered("rule-hits", ["trajectories", "rules", "rule_hits"], getRuleHits);
}

/** Each rule in force with its figures (the Rules page, `rules list`): from trajectories, votes, gold and rules. */
export async function ruleFiguresNow(): Promise<RuleFigures[]> {
  return remembered("rule-figures", ["trajectories", "votes", "gold", "rules", "rule_hits"], ruleFigures);
}

/** The result table with its companions: every table the results page and its downloads show. */
export async function resultsReportNow(): Promise<ResultsReport> {
  const [conditions, changes, network, evidence, rules] = await Promise.all([
    resultsNow(),
    changesNow(),
    networkNow(),
    evidenceNow(),
    ruleHitsNow(),
  ]);
  return { conditions, changes, network, evidence, rules };
}

/** Tables built from one report, by benchmark: kept while the report's parts are the same objects. */
const builtTables = new WeakMap<
  readonly ConditionResult[],
  { parts: unknown[]; byBenchmark: Map<string, ReturnType<typeof benchmarkTables>> }
>();

/** One benchmark's page tables, built once for each version of the figures. */
export function benchmarkTablesOf(report: ResultsReport, benchmark: string): ReturnType<typeof benchmarkTables> {
  const parts = [report.changes, report.network, report.evidence, report.rules];
  let built = builtTables.get(report.conditions);
  if (!built || built.parts.some((p, i) => p !== parts[i])) {
    built = { parts, byBenchmark: new Map() };
    builtTables.set(report.conditions, built);
  }
  let tables = built.byBenchmark.get(benchmark);
  if (!tables) built.byBenchmark.set(benchmark, (tables = benchmarkTables(benchmark, report)));
  return tables;
}

export async function agreementNow(scope: AgreementScope = {}): Promise<AgreementReport> {
  const report = `agreement:${scope.studyId ?? "all"}:${scope.firstForms ? "first" : "newest"}`;
  // The monitors read the rules and their hits too.
  const kinds: Kind[] = ["trajectories", "votes", "labels", "gold", "studies", "people", "rules", "rule_hits"];
  return remembered(report, kinds, async () => {
    const read = await readAgreement(scope);
    foldIfMany("agreement", read.deltas);
    return read.report;
  });
}

/** Two panels compared, keyed by their names and the versions (saved panels never change). */
export async function comparisonNow(name: string, withName?: string): Promise<PanelComparisonView> {
  const report = `compare:${JSON.stringify([name, withName ?? null])}`;
  return remembered(report, ["trajectories", "votes", "gold"], () => comparePanelsNamed(name, withName));
}

/** Deltas read past which a reader folds the tallies (decisions 37, 39; the fold: lib/data/tallies.ts). */
const FOLD_AFTER = 500;

const folding = new Set<Tally>();

/** Past FOLD_AFTER deltas read, folds one tally at a time in the background; never inside a scope. */
export function foldIfMany(tally: Tally, deltas: number): void {
  if (currentScope() || deltas <= FOLD_AFTER || folding.has(tally)) return;
  folding.add(tally);
  foldTallies(tally)
    .catch((e) => console.error(`folding the ${tally} tallies failed (the next reader tries again):`, e))
    .finally(() => folding.delete(tally));
}
