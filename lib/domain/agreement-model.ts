// One agreement table as a model: groups of paired answers with counts, agreement, κ and its interval.
import { type BinaryAgreement, expectedPairs } from "./agreement";
import { CELLS, type Cell, type Question } from "./agreement-cells";
import type { Agreement } from "./agreement-report";
import { type ModelCell, type ModelColumn, type ModelRow, plain, type TableModel, valued } from "./figure-table";
import { formatCount, formatPercent, UNDEFINED_FIGURE } from "./format";

const QUESTIONS = ["attempt", "success"] as const;

/** Cohen's κ as every agreement table writes it: two decimals, its interval "0.30 to 0.52" below. */
export const kappaText = (k: number | null) => (k === null ? UNDEFINED_FIGURE : k.toFixed(2));

/** Below this many pairs a κ and its interval are read with their counts, not alone. */
export const FEW_PAIRS = 10;

/** Why a κ should not be read alone: too few pairs, prevalence (p_e ≥ 0.9: low κ beside high agreement), undefined. */
export function kappaNote(a: BinaryAgreement): string | null {
  if (a.n === 0) return null;
  const pe = expectedPairs(a) / (a.n * a.n);
  const raw = a.agreement === null ? "" : ` beside ${a.agreement.toFixed(1)}% raw agreement`;
  if (a.kappa === null) return `undefined: every pair on one side (n = ${a.n})`;
  if (pe >= 0.9)
    return `κ${raw}: nearly every pair is on one side (expected agreement ${pe.toFixed(2)}), so κ is low by prevalence`;
  if (a.n < FEW_PAIRS) return `n = ${a.n}: too few pairs for the interval to say much`;
  return null;
}
export const kappaInterval = (ci: [number, number] | null) =>
  ci ? `${ci[0].toFixed(2)} to ${ci[1].toFixed(2)}` : undefined;

const noteParts = (note: string | null) => (note ? { parts: [{ text: note }] } : {});

/** One group of a table: its label, its figures, and what each count opens (none: not linked). */
export type AgreementGroup = {
  scope: string;
  label: string;
  agreement: Agreement;
  links?: (q: Question) => Record<Cell, string>;
};

const CELL_WORDS: Record<Cell, string> = {
  both_positive: "both positive",
  both_negative: "both negative",
  human_only: "human only",
  judges_only: "judges only",
};

function columns(reference: string, rater: string): ModelColumn[] {
  const count = (key: Cell, label: string): ModelColumn => ({ key, label, numeric: true, fields: [{ key }] });
  return [
    { key: "scope", label: "Scope", onPage: false, fields: [{ key: "scope", tex: "Scope" }] },
    { key: "group", label: "Group", fields: [{ key: "group", tex: "Group" }] },
    { key: "question", label: "Question", fields: [{ key: "question", tex: "Question" }] },
    { key: "n", label: "n", numeric: true, fields: [{ key: "n", tex: "$n$", digits: 0 }] },
    { key: "agreement", label: "Agreement", numeric: true, fields: [{ key: "agreement", tex: "Agr." }] },
    {
      key: "kappa",
      label: "Cohen's κ (95%)",
      numeric: true,
      fields: [{ key: "kappa", tex: "$\\kappa$", digits: 2 }, { key: "kappa_ci_low" }, { key: "kappa_ci_high" }],
    },
    count("both_positive", "Both yes"),
    count("both_negative", "Both no"),
    count("human_only", `${reference} only`),
    count("judges_only", `${rater} only`),
  ];
}

function rows(g: AgreementGroup): ModelRow[] {
  return QUESTIONS.map((q) => {
    const a: BinaryAgreement = g.agreement[q];
    const links = g.links?.(q);
    const count = (c: Cell): ModelCell =>
      valued(
        {
          text: formatCount(a[c]),
          sort: a[c],
          ...(links && a[c] > 0
            ? { href: links[c], count: a[c], label: `${g.label}, ${q}, ${CELL_WORDS[c]}: ${a[c]}` }
            : {}),
        },
        a[c],
      );
    return {
      key: `${g.scope}\u0000${g.label}\u0000${q}`,
      cells: [
        plain(g.scope),
        plain(g.label),
        plain(q),
        plain(a.n, formatCount(a.n)),
        valued({ text: formatPercent(a.agreement), sort: a.agreement }, a.agreement),
        valued(
          { text: kappaText(a.kappa), sort: a.kappa, sub: kappaInterval(a.kappa_ci), ...noteParts(kappaNote(a)) },
          a.kappa,
          a.kappa_ci?.[0] ?? null,
          a.kappa_ci?.[1] ?? null,
        ),
        ...CELLS.map(count),
      ],
    };
  });
}

/** A table of groups: `reference` plays the human's part (the gold label in the gold tables), `rater` the other. */
export function agreementModel(
  name: string,
  title: string,
  groups: readonly AgreementGroup[],
  reference = "Human",
  rater = "Judges",
): TableModel {
  return { name, title, columns: columns(reference, rater), rows: groups.flatMap(rows) };
}
