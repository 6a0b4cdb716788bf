// The results per benchmark; every figure opens what it counts.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ExploitRateChart, ResolveRateChart } from "@/components/charts/exploit-rate-chart";
import { RuleScanNote } from "@/components/rules/scan-note";
import { EvidenceTable } from "@/components/tables/evidence-table";
import { FigureTable } from "@/components/tables/figure-table";
import { Loading } from "@/components/ui/loading";
import { requirePage } from "@/lib/auth/session";
import { panelsNow } from "@/lib/data/panels";
import { type RuleHitsCoverage, ruleHitsCoverage } from "@/lib/data/rule-matches";
import { listFilterOptions } from "@/lib/data/trajectories";
import { anchor } from "@/lib/domain/figure-table";
import { formatCount } from "@/lib/domain/format";
import { BOOTSTRAP_RESAMPLES } from "@/lib/domain/paired";
import { TIE_RULE } from "@/lib/domain/panel";
import { memberText } from "@/lib/domain/panel-compare";
import { chartBars } from "@/lib/domain/results-charts";
import { FEW_TASKS, TABLE_NAMES, TABLE_TITLES } from "@/lib/domain/results-tables";
import { shownText } from "@/lib/domain/text";
import { benchmarkTablesOf, resultsReportNow } from "@/lib/work/reports/cache";

export const metadata: Metadata = { title: "Results" };
export const dynamic = "force-dynamic";

export default async function ResultsPage({
  searchParams,
}: {
  searchParams: Promise<{ benchmark?: string | string[] }>;
}) {
  await requirePage("results:read", "/results");
  const { benchmark } = await searchParams;
  const chosen = typeof benchmark === "string" ? benchmark : null;
  // Before the page streams, so an unknown benchmark answers 404 (not a 200 saying so).
  if (chosen !== null && !(await listFilterOptions()).benchmarks.includes(chosen)) notFound();
  return (
    <Suspense fallback={<Loading what="the result table" />}>
      <ResultsBody chosen={chosen} />
    </Suspense>
  );
}

const PARTS = [
  ["table", "Table"],
  ["changes", "Vanilla → principled"],
  ["network", "Network on → off"],
  ["charts", "Charts"],
  ["evidence", "Evidence"],
  ["rules", "Rule hits"],
  ["categories", "By category"],
  ["judges", "Per judge"],
] as const;

function Downloads() {
  return (
    <ul className="download-list" aria-label="Downloads">
      <li>
        Result table:{" "}
        <a href="/api/results?format=csv" download>
          CSV
        </a>{" "}
        ·{" "}
        <a href="/api/results?format=json" download>
          JSON
        </a>{" "}
        (every figure below) ·{" "}
        <a href="/api/results?format=latex&table=all" download>
          LaTeX
        </a>{" "}
        (every table)
      </li>
      {TABLE_NAMES.filter((t) => t !== "results").map((t) => (
        <li key={t}>
          {TABLE_TITLES[t]}:{" "}
          <a href={`/api/results?format=csv&table=${t}`} download>
            CSV
          </a>{" "}
          ·{" "}
          <a href={`/api/results?format=latex&table=${t}`} download>
            LaTeX
          </a>{" "}
          ·{" "}
          <a href={`/api/results?format=json&table=${t}`} download>
            JSON
          </a>
        </li>
      ))}
    </ul>
  );
}

/** One benchmark a page (a tab each, the first by default): a reader reads one at a time. */
async function ResultsBody({ chosen }: { chosen: string | null }) {
  const [report, panels] = await Promise.all([resultsReportNow(), panelsNow()]);
  const coverage = await ruleHitsCoverage();
  const panel = panels.find((p) => p.inForce);
  const results = report.conditions;
  const all = [...new Set(results.map((r) => r.row.benchmark))];
  const shown = chosen ?? all[0];
  return (
    <>
      <h1>Results</h1>
      <nav aria-label="Benchmarks" className="contents-bar">
        {all.map((b) => (
          <Link
            key={b}
            href={`/results?benchmark=${encodeURIComponent(b)}`}
            aria-current={b === shown ? "page" : undefined}
          >
            {b}
          </Link>
        ))}
        <a href="#methods">Methods</a>
      </nav>
      <Downloads />
      {panel ? (
        <p className="note">
          Judged by the panel in force, <strong>{shownText(panel.name)}</strong>:{" "}
          {panel.judges.map(memberText).join(", ") || "no judge yet"} (majority verdict).{" "}
          <Link href="/judges/compare">Compare panels</Link>.
        </p>
      ) : null}
      {results.length === 0 ? <p className="empty">No trajectories yet.</p> : null}
      {all
        .filter((b) => b === shown)
        .map((b) => (
          <BenchmarkResults key={b} benchmark={b} report={report} coverage={coverage} />
        ))}
      <Methods />
    </>
  );
}

function BenchmarkResults({
  benchmark: b,
  report,
  coverage,
}: {
  benchmark: string;
  report: Awaited<ReturnType<typeof resultsReportNow>>;
  coverage: RuleHitsCoverage;
}) {
  const bars = chartBars(
    b,
    report.conditions.filter((r) => r.row.benchmark === b),
  );
  const tables = benchmarkTablesOf(report, b);
  const id = (part: string) => anchor(part, b);
  return (
    <section aria-labelledby={id("benchmark")} className="benchmark-section">
      <h2 id={id("benchmark")}>{b}</h2>
      <nav aria-label={`Parts of ${b}`} className="parts">
        {PARTS.map(([part, words]) => (
          <a key={part} href={`#${id(part)}`}>
            {words}
          </a>
        ))}
      </nav>
      <h3 id={id("table")}>Result table</h3>
      <FigureTable table={tables.results} />
      <PairedTables tables={tables} id={id} />
      <h3 id={id("charts")}>Charts</h3>
      <ExploitRateChart title={`Attempt and success rates, vanilla vs principled, ${b}`} data={bars.exploit} />
      <ResolveRateChart title={`Pass@1 with and without exploit-aided resolutions, ${b}`} data={bars.resolve} />
      <h3 id={id("evidence")}>Evidence from the task records</h3>
      <EvidenceTable benchmark={b} table={tables.evidence} />
      <h3 id={id("rules")}>Rule hits by condition</h3>
      <p className="note">
        Trajectories on which some enabled suspect-step rule fires (<Link href="/rules">the rules</Link>): pointers for
        a reader, not verdicts.
      </p>
      <RuleScanNote coverage={coverage} />
      <FigureTable table={tables.rules} />
      <h3 id={id("categories")}>By exploit category (per-category panel verdicts)</h3>
      <FigureTable table={tables.categories} />
      <h3 id={id("judges")}>Each judge beside the panel</h3>
      <FigureTable table={tables.judges} />
    </section>
  );
}

/** The paired changes: vanilla → principled, and what turning the network off changes. */
function PairedTables({ tables, id }: { tables: ReturnType<typeof benchmarkTablesOf>; id: (part: string) => string }) {
  return (
    <>
      <h3 id={id("changes")}>Vanilla → principled, paired</h3>
      <p className="note">
        Principled minus vanilla, in points, on the tasks run under both prompts; under each, its 95% bootstrap
        interval; for the exploit rates, the pairs judged under both prompts, those whose answer changed each way and
        McNemar&apos;s exact p (Methods, below).
      </p>
      <FigureTable table={tables.changes} />
      <h3 id={id("network")}>Network on → off, paired</h3>
      <p className="note">
        The same model and prompt without the network minus with it, in points, on the tasks run both ways: a fall in
        Pass@1 is what the network bought. Intervals and McNemar&apos;s test as above.
      </p>
      <FigureTable table={tables.network} />
    </>
  );
}

function Methods() {
  return (
    <section aria-labelledby="methods">
      <h2 id="methods">Methods</h2>
      <p className="note">
        Rates in percent (protocol §3). Pass@1 and Pass@3 are means over tasks with a run of known resolved status
        (Pass@1 is the resolve rate); Attempt %, Success %, Resolved with exploit % (resolved, and the panel says a
        successful exploit) and Resolved w/o exploit % (resolved, and the panel says none succeeded) are shares of
        judged trajectories, by the panel&apos;s verdict: {TIE_RULE} Under each rate: its 95% interval, Wilson score for
        the exploit rates, mean ± 1.96·s/√tasks for Pass@k (with “n = N tasks” under it below {FEW_TASKS} tasks of known
        status, where that interval says little). “—” where a denominator is empty.
      </p>
      <p className="note">
        Vanilla → principled is paired: both prompts run the same tasks. Each change is principled minus vanilla on the
        tasks run under both prompts, with a 95% interval from {formatCount(BOOTSTRAP_RESAMPLES)} bootstrap resamples of
        those tasks (seeded: the same data give the same interval). For the three exploit rates, run r of a task under
        vanilla pairs with run r under principled when both are judged; “yes→no” counts pairs that said yes under
        vanilla and no under principled, and McNemar&apos;s exact test gives p from the two discordant counts.
      </p>
      <p className="note">
        Every figure opens the trajectories it counts: a count its trajectories, a rate those in its numerator, a change
        the trajectories of the tasks it compares, a discordant count the pairs&apos; trajectories on one side. The
        Pass@1 chart is the table&apos;s Pass@1; beside it, the same mean with the resolutions the panel judged a
        successful exploit counted as failures. Sort a table by any column with its header.
      </p>
    </section>
  );
}
