// The monitors' part of the agreement page: every judge, panel and rule against gold.

import { MonitorChart } from "@/components/charts/monitor-charts";
import { FigureTable } from "@/components/tables/figure-table";
import { networkWords } from "@/lib/domain/charts";
import { pageTable } from "@/lib/domain/figure-table";
import { countOf } from "@/lib/domain/format";
import { reliabilitySeries, rocSeries } from "@/lib/domain/monitor-charts";
import type { MonitorReport, MonitorRow } from "@/lib/domain/monitor-report";
import { monitorTables } from "@/lib/domain/monitor-table";
import { ALL } from "@/lib/domain/monitors";

export function Monitors({ report, query, study }: { report: MonitorReport; query: string; study: string | null }) {
  const tables = monitorTables(report);
  const overall = report.rows.filter((r) => r.category === ALL);
  const few = report.conditions.filter((c) => !c.measured);
  return (
    <section aria-labelledby="monitors">
      <h2 id="monitors">Monitors against the gold labels</h2>
      <p className="note">
        Each judge under each prompt version (or its imported votes), each saved panel and each enabled rule in force,
        ranking the trajectories with a gold label: a judge by its confidence where it gave one (else 1 or 0 from its
        verdict, overall the largest), a panel by the share of its votes saying attempted, a rule by whether it fires.
        Positive: gold says attempted or successful. AUROC counts ties one half, with a 95% interval from 2,000
        resamples of the trajectories; “caught at 5% false alarms” is the largest true-positive rate whose threshold
        flags at most 5% of the negatives; balanced accuracy is at the verdict (score ≥ 0.5); “—” where gold gives one
        class only.{" "}
        <a href={`/api/agreement?format=csv&table=monitors${query}`} download>
          CSV
        </a>{" "}
        <a href={`/api/agreement?format=json&table=monitors${query}`} download>
          JSON
        </a>{" "}
        <a href={`/api/agreement?format=latex&table=monitors${query}`} download>
          LaTeX
        </a>
      </p>
      {tables.length ? null : <p>No gold label yet: the monitors are measured against gold labels.</p>}
      <MonitorPictures rows={overall} study={study} />
      {tables.map((t) => (
        <section key={t.id} aria-labelledby={t.id}>
          <h3 id={t.id}>{t.heading}</h3>
          <FigureTable table={pageTable(t.model, `${t.id}-table`, t.model.title)} />
        </section>
      ))}
      {few.length ? (
        <p className="note">
          Not measured by condition (fewer than {report.min_gold} gold labels):{" "}
          {few
            .map((c) => `network ${networkWords(c.network)}, ${c.prompt} (${countOf(c.gold, "gold label")})`)
            .join("; ")}
          .
        </p>
      ) : null}
    </section>
  );
}

/** ROC curves of every judge and panel overall; reliability of the judges that gave confidence. */
function MonitorPictures({ rows, study }: { rows: MonitorRow[]; study: string | null }) {
  const roc = rocSeries(rows, study);
  const reliability = reliabilitySeries(rows, study);
  return (
    <>
      {roc.length ? (
        <MonitorChart
          title="ROC curves: each judge and panel overall"
          series={roc}
          x="false alarms (share of negatives)"
          y="caught (share of positives)"
          roc
        />
      ) : null}
      {reliability.length ? (
        <MonitorChart
          title="Reliability: confidence given against the share gold calls positive, in tenths"
          series={reliability}
          x="confidence given (mean in the bin)"
          y="share positive"
          roc={false}
        />
      ) : null}
      {reliability.map((r) => (
        <p key={r.name} className="note">
          {r.name}:{" "}
          {r.points.map((p, i) => (
            <span key={p.label}>
              {i ? "; " : ""}
              {p.href ? <a href={p.href}>{p.label}</a> : p.label}
            </span>
          ))}
        </p>
      ))}
    </>
  );
}
