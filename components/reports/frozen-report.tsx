// A frozen report: what it is, its downloads and its stored figures; `linked` opens live lists (signed-in only).

import { FigureTable } from "@/components/tables/figure-table";
import { ContentsBar } from "@/components/ui/contents-bar";
import type { FrozenReportView } from "@/lib/data/frozen-reports";
import { agreementTables } from "@/lib/domain/agreement-tables";
import { anchor, pageTable, type FigureTable as Table, unlinked } from "@/lib/domain/figure-table";
import { formatCount, formatTime } from "@/lib/domain/format";
import { monitorTables } from "@/lib/domain/monitor-table";
import { benchmarkTables, TABLE_NAMES, TABLE_TITLES } from "@/lib/domain/results-tables";
import { shownText } from "@/lib/domain/text";

type Props = {
  report: FrozenReportView;
  linked: boolean;
  /** The downloads' address; `?what=results|agreement&format=…&table=…` is added. */
  downloads: string;
  /** Whether the live figures have moved away from these (null: not said to this reader). */
  moved: boolean | null;
};

export function FrozenReport({ report, linked, downloads, moved }: Props) {
  const results = report.results.conditions;
  const show = (t: Table) => <FigureTable table={linked ? t : unlinked(t)} whole />;
  const benchmarks = [...new Set(results.map((r) => r.row.benchmark))];
  return (
    <>
      <ReportHeader report={report} moved={moved} />
      <ContentsBar benchmarks={benchmarks} more={[{ id: "agreement", text: "Agreement" }]} />
      <ReportDownloads downloads={downloads} />
      {benchmarks.map((b) => (
        <BenchmarkFigures key={b} benchmark={b} report={report} show={show} />
      ))}
      <section aria-labelledby="agreement" className="benchmark-section">
        <h2 id="agreement">Agreement</h2>
        {[
          ...agreementTables(report.figures.agreement),
          ...(report.figures.agreement.monitors ? monitorTables(report.figures.agreement.monitors) : []),
        ].map((t) => (
          <div key={t.id}>
            <h3>{t.heading}</h3>
            {show(pageTable(t.model, t.id, t.model.title))}
          </div>
        ))}
      </section>
    </>
  );
}

/** The judges counted, each with its votes and prompt versions (or "imported"). */
const judgesText = (judges: FrozenReportView["judges"]) =>
  judges.length
    ? judges
        .map(
          (j) =>
            `${j.judge} (${formatCount(j.votes)} vote${j.votes === 1 ? "" : "s"}${
              j.promptVersions.length ? `, prompt v${j.promptVersions.join(", v")}` : ", imported"
            })`,
        )
        .join("; ")
    : "none";

function ReportHeader({ report, moved }: Pick<Props, "report" | "moved">) {
  const panel = report.figures.panel;
  return (
    <>
      <h1>Report: {shownText(report.name)}</h1>
      <p>
        Frozen {formatTime(report.createdAt)}
        {report.createdBy ? ` by ${report.createdBy}` : ""} · Shortcut Audit {report.appVersion} · data fingerprint{" "}
        <code title={report.fingerprint}>{report.fingerprint.slice(0, 16)}</code>
      </p>
      <p className="note">
        Judges: {judgesText(report.judges)}.{" "}
        {panel
          ? `Panel: ${panel.name} (${panel.judges
              .map((m) => `${m.judge} ${m.promptVersion === null ? "imported" : `v${m.promptVersion}`}`)
              .join(", ")}). `
          : ""}
        These figures were stored when the report was frozen; they do not change when the data do.
      </p>
      {moved === null ? null : moved ? (
        <p className="warn" role="status">
          The live figures have moved away from this report: trajectories, votes, labels or gold labels changed since it
          was frozen.
        </p>
      ) : (
        <p role="status">The live figures are still these: the data have not changed since.</p>
      )}
    </>
  );
}

function ReportDownloads({ downloads }: Pick<Props, "downloads">) {
  const href = (what: string, format: string, table?: string) =>
    `${downloads}?what=${what}&format=${format}${table ? `&table=${table}` : ""}`;
  return (
    <ul className="download-list" aria-label="Downloads">
      <li>
        Results: <a href={href("results", "json")}>JSON</a> · <a href={href("results", "latex", "all")}>LaTeX</a> (every
        table) ·{" "}
        {TABLE_NAMES.map((t, i) => (
          <span key={t}>
            {i ? " · " : ""}
            <a href={href("results", "csv", t)}>{TABLE_TITLES[t]} CSV</a>
          </span>
        ))}
      </li>
      <li>
        Agreement: <a href={href("agreement", "json")}>JSON</a> · <a href={href("agreement", "csv")}>CSV</a> ·{" "}
        <a href={href("agreement", "latex")}>LaTeX</a>
      </li>
      <li>
        Monitors: <a href={href("agreement", "json", "monitors")}>JSON</a> ·{" "}
        <a href={href("agreement", "csv", "monitors")}>CSV</a> ·{" "}
        <a href={href("agreement", "latex", "monitors")}>LaTeX</a>
      </li>
    </ul>
  );
}

function BenchmarkFigures({
  benchmark,
  report,
  show,
}: {
  benchmark: string;
  report: FrozenReportView;
  show: (t: Table) => React.ReactNode;
}) {
  const tables = benchmarkTables(benchmark, report.results);
  return (
    <section aria-labelledby={anchor("benchmark", benchmark)} className="benchmark-section">
      <h2 id={anchor("benchmark", benchmark)}>{benchmark}</h2>
      <h3>Result table</h3>
      {show(tables.results)}
      <h3>Vanilla → principled, paired</h3>
      {show(tables.changes)}
      {tables.network.rows.length ? (
        <>
          <h3>Network on → off, paired</h3>
          {show(tables.network)}
        </>
      ) : null}
      {tables.evidence.rows.length ? (
        <>
          <h3>Evidence from the task records</h3>
          {show(tables.evidence)}
        </>
      ) : null}
      {tables.rules.rows.length ? (
        <>
          <h3>Rule hits by condition</h3>
          {show(tables.rules)}
          {report.figures.rulesLeftOut?.map((r) => (
            <p key={r.name} className="note" role="note">
              Left out: the rule {shownText(r.name)}, stopped when the report was frozen ({shownText(r.failure)}).
            </p>
          ))}
        </>
      ) : null}
      <h3>By exploit category</h3>
      {show(tables.categories)}
      <h3>Each judge beside the panel</h3>
      {show(tables.judges)}
    </section>
  );
}
