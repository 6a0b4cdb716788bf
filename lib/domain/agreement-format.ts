// The agreement report as JSON (docs/formats.md), CSV and LaTeX from the page's models.
import type { AgreementReport } from "./agreement-report";
import { agreementTables } from "./agreement-tables";
import { type TableModel, tableCsv, tableLatex } from "./figure-table";
import { csvCell, latexNumber } from "./table-format";

export function agreementJson(r: AgreementReport): Record<string, unknown> {
  return {
    overall: r.overall,
    by_condition: r.by_condition,
    by_model: r.by_model,
    by_benchmark: r.by_benchmark,
    judges: r.judges,
    by_category: r.by_category ?? [],
    inter_annotator: r.inter_annotator,
    gold: r.gold,
    blind_revisions: r.blind_revisions,
    monitors: r.monitors ?? null,
  };
}

/** Every table of the report in one (the downloads): the tables' rows, each with its scope. */
export function agreementDownload(r: AgreementReport): TableModel {
  const tables = agreementTables(r).map((t) => t.model);
  return {
    ...tables[0]!,
    name: "agreement",
    title: "Human labels against the judge panel",
    rows: tables.flatMap((t) => t.rows),
  };
}

/** CSV: a row per group and question, then one with Krippendorff's alpha between annotators (kappa column). */
export function agreementCsv(r: AgreementReport): string {
  const alpha = [
    "inter_annotator",
    "krippendorff_alpha_nominal",
    "overall",
    r.inter_annotator.units,
    "",
    r.inter_annotator.alpha,
  ];
  return `${tableCsv(agreementDownload(r))}${[...alpha, ...Array(6).fill(null)].map(csvCell).join(",")}\n`;
}

export function agreementLatex(r: AgreementReport): string {
  return (
    tableLatex(agreementDownload(r)) +
    `% Krippendorff's alpha (nominal, overall verdict) between annotators: ` +
    `${latexNumber(r.inter_annotator.alpha, 3)} over ${r.inter_annotator.units} units.\n`
  );
}
