// The formats the study's reports (result table, agreement) download and print in.

export const REPORT_FORMATS = {
  json: { type: "application/json", extension: "json" },
  csv: { type: "text/csv", extension: "csv" },
  latex: { type: "application/x-tex", extension: "tex" },
} as const;
export type ReportFormat = keyof typeof REPORT_FORMATS;

/** A format name given by a user (a query parameter, an option): only the formats' own names, never `toString`. */
export function isReportFormat(v: unknown): v is ReportFormat {
  return typeof v === "string" && Object.hasOwn(REPORT_FORMATS, v);
}
