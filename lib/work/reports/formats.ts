import "server-only";
// The two reports in each format, shared by the command line, the downloads and frozen reports.
import type { AgreementScope } from "@/lib/data/agreement";
import { agreementCsv, agreementJson, agreementLatex } from "@/lib/domain/agreement-format";
import type { AgreementReport } from "@/lib/domain/agreement-report";
import { tableCsv, tableJson, tableLatex } from "@/lib/domain/figure-table";
import { monitorModel } from "@/lib/domain/monitor-table";
import { isReportFormat, REPORT_FORMATS, type ReportFormat } from "@/lib/domain/report-formats";
import { resultsReportJson, resultsTable, resultsTableJson } from "@/lib/domain/results-format";
import { type ResultsReport, TABLE_NAMES, type TableName } from "@/lib/domain/results-tables";
import { AppError } from "@/lib/errors";
import { agreementNow, resultsReportNow } from "./cache";

export { isReportFormat, REPORT_FORMATS, type ReportFormat };

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** Whose labels the agreement counts, and which result table a download holds (default per docs/formats.md). */
export type ReportScope = AgreementScope & { table?: TableName | "all" | "monitors" };

/** A user's table name checked: a table's or "all" (not for CSV); none: the result table, or all for JSON. */
export function tableChoice(
  v: string | null | undefined,
  format: ReportFormat,
): { table?: TableName | "all" } | { error: string } {
  if (v == null && format === "json") return {};
  const t = v ?? "results";
  if ((TABLE_NAMES as readonly string[]).includes(t)) return { table: t as TableName };
  if (t === "all" && format !== "csv") return { table: "all" };
  return {
    error: `table is one of ${TABLE_NAMES.join(", ")}${format === "csv" ? " (a CSV holds one table)" : ", all"}`,
  };
}

/** The figures a report is written from: the live ones, or a frozen report's. */
export type ReportFigures = { results: () => Promise<ResultsReport>; agreement: () => Promise<AgreementReport> };

const WRITERS = {
  results: async (figures: ReportFigures, format: ReportFormat, table?: TableName | "all" | "monitors") => {
    if (table === "monitors") throw new AppError("BAD_INPUT", "monitors is a table of the agreement", "table");
    const report = await figures.results();
    if (format !== "json") return resultsTable(report, format, table ?? "results");
    return json(table && table !== "all" ? resultsTableJson(report, table) : resultsReportJson(report));
  },
  agreement: async (figures: ReportFigures, format: ReportFormat, table?: TableName | "all" | "monitors") => {
    const report = await figures.agreement();
    if (table === "monitors") return monitorsText(report, format);
    return {
      json: () => json(agreementJson(report)),
      csv: () => agreementCsv(report),
      latex: () => agreementLatex(report),
    }[format]();
  },
} as const;
export type ReportName = keyof typeof WRITERS;

/** `agreement --table monitors`: one row per monitor × category (none in a report frozen before monitors). */
function monitorsText(report: AgreementReport, format: ReportFormat): string {
  const model = monitorModel(report.monitors?.rows ?? []);
  if (format === "json") return json(tableJson(model).rows);
  return format === "csv" ? tableCsv(model) : tableLatex(model);
}

/** The agreement's one other table: none (the κ tables) or "monitors". */
export function agreementTableChoice(v: string | null | undefined): { table?: "monitors" } | { error: string } {
  if (v == null || v === "agreement") return {};
  return v === "monitors" ? { table: "monitors" } : { error: "table is agreement (the default) or monitors" };
}
export const REPORT_NAMES = Object.keys(WRITERS) as ReportName[];

const live = (scope: AgreementScope): ReportFigures => ({
  results: resultsReportNow,
  agreement: () => agreementNow(scope),
});

/** A report of the live figures as text (the command line prints it). */
export function reportText(name: ReportName, format: ReportFormat, scope: ReportScope = {}): Promise<string> {
  return WRITERS[name](live(scope), format, scope.table);
}
export const REPORTS = {
  results: (format: ReportFormat, scope: ReportScope = {}) => reportText("results", format, scope),
  agreement: (format: ReportFormat, scope: ReportScope = {}) => reportText("agreement", format, scope),
} as const;

export type ReportFile = { body: string; type: string; filename: string };

/** A report as a file, or BAD_INPUT naming the format or table; `figures` a frozen report's, else live. */
export async function reportFile(
  name: ReportName,
  format: string | null,
  scope: AgreementScope = {},
  table_: string | null = null,
  figures: ReportFigures = live(scope),
  file = `shortcut-audit-${name}`,
): Promise<ReportFile> {
  const f = format ?? "csv";
  if (!isReportFormat(f))
    throw new AppError("BAD_INPUT", `format is one of ${Object.keys(REPORT_FORMATS).join(", ")}`, "format");
  const table = name === "results" ? tableChoice(table_, f) : agreementTableChoice(table_);
  if ("error" in table) throw new AppError("BAD_INPUT", table.error, "table");
  const suffix = table.table && table.table !== "results" ? `-${table.table}` : "";
  return {
    body: await WRITERS[name](figures, f, table.table),
    type: `${REPORT_FORMATS[f].type}; charset=utf-8`,
    filename: `${file}${suffix}.${REPORT_FORMATS[f].extension}`,
  };
}

export const frozenFigures = (f: { results: ResultsReport; agreement: AgreementReport }): ReportFigures => ({
  results: async () => f.results,
  agreement: async () => f.agreement,
});
