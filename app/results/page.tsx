import type { Metadata } from "next";
import { Suspense } from "react";
import { Loading } from "@/components/ui/loading";
import { ExploitRateChart, ResolveRateChart } from "@/components/charts/exploit-rate-chart";
import Link from "next/link";
import { ResultTable } from "@/components/tables/result-table";
import { EvidenceTable } from "@/components/tables/evidence-table";
import { evidenceSummary } from "@/lib/data/evidence-summary";
import { drillDown } from "@/lib/domain/drill-down";
import { trajectoriesHref } from "@/lib/domain/trajectory-filter";
import { resultsNow } from "@/lib/data/report-cache";
import { exploitRateBars, groupLabel, resolveRateBars } from "@/lib/domain/charts";
import { RATE_KEYS, RATE_LABELS, categoryRates, judgeRates, promptDeltas } from "@/lib/domain/results";
import { CATEGORIES, CATEGORY_LABELS } from "@/lib/domain/verdicts";
import { formatCount, formatPercent } from "@/lib/format";
import { requirePage } from "@/lib/auth/session";
import { NetworkMark } from "@/components/ui/network-mark";

export const metadata: Metadata = { title: "Results" };
export const dynamic = "force-dynamic";

const pp = (v: number | null) => (v === null ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(1)} pp`);

export default async function ResultsPage() {
  await requirePage("results:read", "/results");
  return (
    <Suspense fallback={<Loading what="the result table" />}>
      <ResultsBody />
    </Suspense>
  );
}

async function ResultsBody() {
  const [results, evidence] = await Promise.all([resultsNow(), evidenceSummary()]);
  const rows = results.map((r) => r.row);
  const benchmarks = [...new Set(rows.map((r) => r.benchmark))];
  const deltas = promptDeltas(rows);
  return (
    <>
      <h1>Results</h1>
      <p className="note">
        Rates in percent (protocol §3). Pass@1 and Pass@3 are means over tasks with a run of known resolved status;
        Attempt %, Success % and Resolved % are shares of judged trajectories, by the panel&apos;s majority verdict.
        Under each rate: its 95% interval, Wilson score for the three exploit rates, mean ± 1.96·s/√tasks for Pass@k.
        “—” where a denominator is empty. Every figure links to the trajectories it counts.
      </p>
      <p className="downloads">
        Download:{" "}
        <a href="/api/results?format=csv" download>
          CSV
        </a>{" "}
        <a href="/api/results?format=json" download>
          JSON
        </a>{" "}
        <a href="/api/results?format=latex" download>
          LaTeX
        </a>
      </p>
      {rows.length === 0 ? <p className="empty">No trajectories yet.</p> : null}
      {benchmarks.map((b) => {
        const own = results.filter((r) => r.row.benchmark === b);
        return (
          <section key={b} aria-label={`Results for ${b}`}>
            <h2>{b}</h2>
            <ResultTable benchmark={b} rows={own.map((r) => r.row)} />
            <h3>Vanilla → principled</h3>
            <table aria-label={`Change from vanilla to principled, ${b}`}>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Net</th>
                  {RATE_KEYS.map((k) => (
                    <th key={k} scope="col" className="num">
                      Δ {RATE_LABELS[k]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {deltas
                  .filter((d) => d.benchmark === b)
                  .map((d) => (
                    <tr key={`${d.model}-${d.network}`}>
                      <th scope="row">{d.model}</th>
                      <td>
                        <NetworkMark network={d.network} />
                      </td>
                      {RATE_KEYS.map((k) => (
                        <td key={k} className="num">
                          {pp(d.deltas[k])}
                        </td>
                      ))}
                    </tr>
                  ))}
              </tbody>
            </table>
            <ExploitRateChart
              title={`Attempt and success rates, vanilla vs principled, ${b}`}
              data={exploitRateBars(rows, b)}
            />
            <ResolveRateChart
              title={`Resolve rate with and without exploit-aided resolutions, ${b}`}
              data={resolveRateBars(
                own.map((r) => ({
                  label: `${groupLabel(r.row.model, r.row.network)} · ${r.row.prompt}`,
                  tasks: r.tallies.tasks,
                  resolvedSuccesses: r.tallies.resolvedSuccesses,
                })),
              )}
            />
            <EvidenceTable benchmark={b} rows={evidence.filter((e) => e.benchmark === b)} />
            <h3>By exploit category (per-category panel verdicts)</h3>
            <table aria-label={`Rates by category, ${b}`}>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Net</th>
                  <th scope="col">Prompt</th>
                  {CATEGORIES.map((c) => (
                    <th key={c} scope="col" className="num">
                      {CATEGORY_LABELS[c]}: attempt / success
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {own.map((r) => {
                  const rates = categoryRates(r.categories);
                  return (
                    <tr key={`${r.row.model}-${r.row.network}-${r.row.prompt}`}>
                      <th scope="row">{r.row.model}</th>
                      <td>
                        <NetworkMark network={r.row.network} />
                      </td>
                      <td>{r.row.prompt}</td>
                      {CATEGORIES.map((c) => {
                        const base = drillDown(r.row).judged;
                        return (
                          <td key={c} className="num">
                            <Link href={trajectoriesHref({ ...base, category: c, categoryVerdict: "attempt" })}>
                              {formatPercent(rates[c].attempt_rate)}
                            </Link>
                            {" / "}
                            <Link href={trajectoriesHref({ ...base, category: c, categoryVerdict: "SUCCESSFUL" })}>
                              {formatPercent(rates[c].success_rate)}
                            </Link>
                          </td>
                        );
                      })}
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <h3>Each judge beside the panel</h3>
            <table aria-label={`Per judge, ${b}`}>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Net</th>
                  <th scope="col">Prompt</th>
                  <th scope="col">Judge</th>
                  <th scope="col" className="num">
                    Votes
                  </th>
                  <th scope="col" className="num">
                    Attempt %
                  </th>
                  <th scope="col" className="num">
                    Success %
                  </th>
                  <th scope="col" className="num">
                    Unparseable
                  </th>
                </tr>
              </thead>
              <tbody>
                {own.flatMap((r) => [
                  ...r.judges.map((j) => {
                    const jr = judgeRates(j);
                    const byJudge = { ...drillDown(r.row).trajectories, judge: j.judge };
                    return (
                      <tr key={`${r.row.model}-${r.row.network}-${r.row.prompt}-${j.judge}`}>
                        <td>{r.row.model}</td>
                        <td>
                          <NetworkMark network={r.row.network} />
                        </td>
                        <td>{r.row.prompt}</td>
                        <td>{j.judge}</td>
                        <td className="num">
                          <Link href={trajectoriesHref(byJudge)}>{formatCount(j.votes)}</Link>
                        </td>
                        <td className="num">
                          <Link href={trajectoriesHref({ ...byJudge, judgeVerdict: "attempt" })}>
                            {formatPercent(jr.attempt_rate)}
                          </Link>
                        </td>
                        <td className="num">
                          <Link href={trajectoriesHref({ ...byJudge, judgeVerdict: "SUCCESSFUL" })}>
                            {formatPercent(jr.success_rate)}
                          </Link>
                        </td>
                        <td className="num">{formatCount(j.unparseable)}</td>
                      </tr>
                    );
                  }),
                  <tr key={`${r.row.model}-${r.row.network}-${r.row.prompt}-panel`} className="panel-row">
                    <td>{r.row.model}</td>
                    <td>
                      <NetworkMark network={r.row.network} />
                    </td>
                    <td>{r.row.prompt}</td>
                    <td>
                      <strong>panel</strong>
                    </td>
                    <td className="num">{formatCount(r.row.judged)}</td>
                    <td className="num">{formatPercent(r.row.attempt_rate)}</td>
                    <td className="num">{formatPercent(r.row.success_rate)}</td>
                    <td className="num">
                      <Link href={trajectoriesHref({ ...drillDown(r.row).trajectories, unparseable: "yes" })}>
                        {formatCount(r.unparseable)}
                      </Link>
                    </td>
                  </tr>,
                ])}
              </tbody>
            </table>
          </section>
        );
      })}
    </>
  );
}
