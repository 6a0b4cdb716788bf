// A frozen report: what it is, its downloads and its stored figures; `linked` opens live lists (signed-in only).

import { FigureTable } from "@/components/tables/figure-table";
import { ContentsBar } from "@/components/ui/contents-bar";
import type { FrozenReportView } from "@/lib/data/frozen-reports";
import { type FigureTable as Table, unlinked } from "@/lib/domain/figure-table";
import { formatTime } from "@/lib/domain/format";
import { judgesText, panelText, reportSections } from "@/lib/domain/report-sections";
import { TABLE_NAMES, TABLE_TITLES } from "@/lib/domain/results-tables";
import { shownText } from "@/lib/domain/text";

type Props = {
  report: FrozenReportView;
  linked: boolean;
  /** The downloads' address; `?what=results|agreement&format=…&table=…` is added. */
  downloads: string;
  /** Whether the live figures have moved away from these (null: not said to this reader). */
  moved: boolean | null;
  /** The bundle's address, for a signed-in reader (a shared link offers none). */
  bundle?: string;
};

export function FrozenReport({ report, linked, downloads, moved, bundle }: Props) {
  const show = (t: Table) => <FigureTable table={linked ? t : unlinked(t)} whole />;
  const sections = reportSections(report.results, report.figures.agreement, report.figures.rulesLeftOut);
  const benchmarks = sections.slice(0, -1).map((s) => s.heading);
  return (
    <>
      <ReportHeader report={report} moved={moved} />
      <ContentsBar benchmarks={benchmarks} more={[{ id: "agreement", text: "Agreement" }]} />
      <ReportDownloads downloads={downloads} bundle={bundle} />
      {sections.map((s) => (
        <section key={s.id} aria-labelledby={s.id} className="benchmark-section">
          <h2 id={s.id}>{s.heading}</h2>
          {s.tables.map((t) => (
            <div key={t.table.id}>
              <h3>{t.heading}</h3>
              {show(t.table)}
              {t.notes?.map((n) => (
                <p key={n} className="note" role="note">
                  {shownText(n)}
                </p>
              ))}
            </div>
          ))}
        </section>
      ))}
    </>
  );
}

function ReportHeader({ report, moved }: Pick<Props, "report" | "moved">) {
  return (
    <>
      <h1>Report: {shownText(report.name)}</h1>
      <p>
        Frozen {formatTime(report.createdAt)}
        {report.createdBy ? ` by ${report.createdBy}` : ""} · Shortcut Audit {report.appVersion} · data fingerprint{" "}
        <code title={report.fingerprint}>{report.fingerprint.slice(0, 16)}</code>
      </p>
      <p className="note">
        Judges: {judgesText(report.judges)}. {panelText(report.figures.panel)}
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

function ReportDownloads({ downloads, bundle }: Pick<Props, "downloads" | "bundle">) {
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
      {bundle ? (
        <li>
          As a folder that opens without a server (the tables, report.json and the trajectories they count; people
          numbered): <a href={bundle}>bundle (.zip)</a> ·{" "}
          <a href={`${bundle}?trajectories=flagged`}>with only the trajectories the panel flags</a>. It is written when
          asked: at the paper's scale the download starts after a minute or two.
        </li>
      ) : null}
    </ul>
  );
}
