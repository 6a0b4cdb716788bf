import "server-only";
// The study's two reports (the result table and the agreement figures) in each export format,
// shared by the command line and the pages' downloads, so every output carries the same numbers.
import { agreementCsv, agreementJson, agreementLatex } from "@/lib/domain/agreement-format";
import { resultsCsv, resultsJson, resultsLatex } from "@/lib/domain/results-format";
import { isReportFormat, REPORT_FORMATS, type ReportFormat } from "@/lib/domain/report-formats";
import type { AgreementScope } from "./agreement";
import { agreementNow, resultsNow } from "./report-cache";

export { REPORT_FORMATS, isReportFormat, type ReportFormat };

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** Which labels the agreement counts: all, or one study's (the result table takes no scope). */
export type ReportScope = AgreementScope;

export const REPORTS = {
  results: async (format: ReportFormat, _scope: ReportScope = {}) => {
    const rows = (await resultsNow()).map((r) => r.row);
    return { json: () => json(resultsJson(rows)), csv: () => resultsCsv(rows), latex: () => resultsLatex(rows) }[
      format
    ]();
  },
  agreement: async (format: ReportFormat, scope: ReportScope = {}) => {
    const report = await agreementNow(scope);
    return {
      json: () => json(agreementJson(report)),
      csv: () => agreementCsv(report),
      latex: () => agreementLatex(report),
    }[format]();
  },
} as const;
export type ReportName = keyof typeof REPORTS;

/** A report as a download, or 400 for an unknown format. */
export async function reportResponse(
  name: ReportName,
  format: string | null,
  scope: ReportScope = {},
): Promise<Response> {
  const f = format ?? "csv";
  if (!isReportFormat(f))
    return Response.json({ error: `format is one of ${Object.keys(REPORT_FORMATS).join(", ")}` }, { status: 400 });
  return new Response(await REPORTS[name](f, scope), {
    headers: {
      "content-type": `${REPORT_FORMATS[f].type}; charset=utf-8`,
      "content-disposition": `attachment; filename="shortcut-audit-${name}.${REPORT_FORMATS[f].extension}"`,
      // A download is a copy of the study at this moment: no cache keeps it for the next reader.
      "cache-control": "no-store",
    },
  });
}
