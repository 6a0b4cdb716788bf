// A frozen report's sections and tables, in order: the report page and a bundle's page render this one list.
import type { AgreementReport } from "./agreement-report";
import { agreementTables } from "./agreement-tables";
import { anchor, type FigureTable, pageTable } from "./figure-table";
import { formatCount } from "./format";
import { monitorTables } from "./monitor-table";
import { benchmarkTables, type ResultsReport } from "./results-tables";

export type ReportTable = { heading: string; table: FigureTable; notes?: string[] };
export type ReportSection = { id: string; heading: string; tables: ReportTable[] };

/** Each benchmark's tables (those with rows, the result table always), then the agreement's. */
export function reportSections(
  results: ResultsReport,
  agreement: AgreementReport,
  rulesLeftOut: ReadonlyArray<{ name: string; failure: string }> = [],
): ReportSection[] {
  const benchmarks = [...new Set(results.conditions.map((r) => r.row.benchmark))];
  const left = rulesLeftOut.map(
    (r) => `Left out: the rule ${r.name}, stopped when the report was frozen (${r.failure}).`,
  );
  return [
    ...benchmarks.map((b): ReportSection => {
      const t = benchmarkTables(b, results);
      const some = (heading: string, table: FigureTable, notes?: string[]) =>
        table.rows.length ? [{ heading, table, ...(notes?.length ? { notes } : {}) }] : [];
      return {
        id: anchor("benchmark", b),
        heading: b,
        tables: [
          { heading: "Result table", table: t.results },
          { heading: "Vanilla → principled, paired", table: t.changes },
          ...some("Network on → off, paired", t.network),
          ...some("Evidence from the task records", t.evidence),
          ...some("Rule hits by condition", t.rules, left),
          { heading: "By exploit category", table: t.categories },
          { heading: "Each judge beside the panel", table: t.judges },
        ],
      };
    }),
    {
      id: "agreement",
      heading: "Agreement",
      tables: [...agreementTables(agreement), ...(agreement.monitors ? monitorTables(agreement.monitors) : [])].map(
        (t) => ({ heading: t.heading, table: pageTable(t.model, t.id, t.model.title) }),
      ),
    },
  ];
}

/** The judges counted, each with its votes and prompt versions (or "imported"). */
export const judgesText = (judges: ReadonlyArray<{ judge: string; votes: number; promptVersions: number[] }>) =>
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

/** The panel the figures followed, with its members' prompt versions ("" when the report kept none). */
export const panelText = (
  panel: { name: string; judges: ReadonlyArray<{ judge: string; promptVersion: number | null }> } | undefined,
) =>
  panel
    ? `Panel: ${panel.name} (${panel.judges
        .map((m) => `${m.judge} ${m.promptVersion === null ? "imported" : `v${m.promptVersion}`}`)
        .join(", ")}). `
    : "";
