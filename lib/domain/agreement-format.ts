// The agreement report as JSON (docs/formats.md: overall, by_condition and gold, each question with
// n, agreement, kappa and the confusion counts; this app adds kappa_ci, by_model, by_benchmark,
// judges and inter_annotator), CSV (one row per group and question) and LaTeX (booktabs).
import type { BinaryAgreement } from "./agreement";
import type { Agreement, AgreementReport } from "./agreement-report";
import { csvCell, latexEscape, latexNumber } from "./table-format";

export function agreementJson(r: AgreementReport): Record<string, unknown> {
  return {
    overall: r.overall,
    by_condition: r.by_condition,
    by_model: r.by_model,
    by_benchmark: r.by_benchmark,
    judges: r.judges,
    inter_annotator: r.inter_annotator,
    gold: r.gold,
    blind_revisions: r.blind_revisions,
  };
}

type Row = { scope: string; group: string; agreement: Agreement };

/** Every group of the report, in the order the page shows them. */
export function agreementRows(r: AgreementReport): Row[] {
  return [
    { scope: "overall", group: "all", agreement: r.overall },
    ...r.by_condition.map((c) => ({
      scope: "condition",
      group: `network ${c.network ? "on" : "off"}, ${c.prompt}`,
      agreement: c,
    })),
    ...r.by_model.map((m) => ({ scope: "model", group: m.model, agreement: m })),
    ...r.by_benchmark.map((b) => ({ scope: "benchmark", group: b.benchmark, agreement: b })),
    ...r.judges.map((j) => ({ scope: "judge", group: j.judge, agreement: j })),
    ...(r.gold
      ? [
          { scope: "gold", group: "panel", agreement: r.gold.panel },
          ...r.gold.judges.map((j) => ({ scope: "gold", group: `judge ${j.judge}`, agreement: j })),
          ...r.gold.annotators.map((a) => ({ scope: "gold", group: `annotator ${a.annotator}`, agreement: a })),
        ]
      : []),
  ];
}

export function agreementCsv(r: AgreementReport): string {
  const header =
    "scope,group,question,n,agreement,kappa,kappa_ci_low,kappa_ci_high," +
    "both_positive,both_negative,human_only,judges_only";
  const lines = agreementRows(r).flatMap(({ scope, group, agreement }) =>
    (["attempt", "success"] as const).map((q) => {
      const a: BinaryAgreement = agreement[q];
      return [
        scope,
        group,
        q,
        a.n,
        a.agreement,
        a.kappa,
        a.kappa_ci?.[0] ?? null,
        a.kappa_ci?.[1] ?? null,
        a.both_positive,
        a.both_negative,
        a.human_only,
        a.judges_only,
      ]
        .map(csvCell)
        .join(",");
    }),
  );
  return `${[
    header,
    ...lines,
    [
      "inter_annotator",
      "krippendorff_alpha_nominal",
      "overall",
      r.inter_annotator.units,
      "",
      r.inter_annotator.alpha ?? "",
    ]
      .concat(Array(6).fill(""))
      .join(","),
  ].join("\n")}\n`;
}

export function agreementLatex(r: AgreementReport): string {
  const out = [
    "% Shortcut Audit: human labels against the judge panel. Agreement in percent; kappa is Cohen's; --- where " +
      "undefined.",
    "\\begin{tabular}{llrrrrrr}",
    "\\toprule",
    " & & \\multicolumn{3}{c}{Attempt} & \\multicolumn{3}{c}{Success} \\\\",
    "\\cmidrule(lr){3-5}\\cmidrule(lr){6-8}",
    "Scope & Group & $n$ & Agr. & $\\kappa$ & $n$ & Agr. & $\\kappa$ \\\\",
    "\\midrule",
  ];
  for (const { scope, group, agreement: a } of agreementRows(r)) {
    out.push(
      `${scope} & ${latexEscape(group)} & ${a.attempt.n} & ${latexNumber(a.attempt.agreement)} & ` +
        `${latexNumber(a.attempt.kappa, 2)} & ${a.success.n} & ${latexNumber(a.success.agreement)} & ` +
        `${latexNumber(a.success.kappa, 2)} \\\\`,
    );
  }
  out.push(
    "\\bottomrule",
    "\\end{tabular}",
    `% Krippendorff's alpha (nominal, overall verdict) between annotators: ` +
      `${latexNumber(r.inter_annotator.alpha, 3)} over ${r.inter_annotator.units} units.`,
  );
  return `${out.join("\n")}\n`;
}
