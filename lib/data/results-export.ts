import "server-only";
// The result table in each export format, shared by the command line and the page's downloads,
// so every output carries the same numbers.
import { resultsCsv, resultsJson, resultsLatex } from "@/lib/domain/results-format";
import { getResults } from "./results";

export const RESULT_FORMATS = {
  json: { type: "application/json", extension: "json", render: (rows: Parameters<typeof resultsJson>[0]) => JSON.stringify(resultsJson(rows), null, 2) + "\n" },
  csv: { type: "text/csv", extension: "csv", render: resultsCsv },
  latex: { type: "application/x-tex", extension: "tex", render: resultsLatex },
} as const;

export type ResultFormat = keyof typeof RESULT_FORMATS;

export async function renderResults(format: ResultFormat): Promise<string> {
  const rows = (await getResults()).map((r) => r.row);
  return RESULT_FORMATS[format].render(rows);
}
