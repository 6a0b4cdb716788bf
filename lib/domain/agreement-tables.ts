// The agreement tables, each built once as a model (figure-table.ts): humans against the panel
// (overall and by condition; by model and benchmark; each judge), every rater against the gold
// labels, and each judge's prompt versions. The agreement page and the frozen report show each one's
// page table, every count linked to exactly what it counted; the CSV and LaTeX downloads write the
// same models' values (agreement-tables.test.ts walks them). κ is written one way everywhere.
import { type BinaryAgreement, expectedPairs } from "./agreement";
import { CELLS, type Cell, type Group, groupText, type Question } from "./agreement-cells";
import type { Agreement, AgreementReport } from "./agreement-report";
import type { CalibrationRow } from "./calibration";
import { networkWords } from "./charts";
import { type ModelCell, type ModelColumn, type ModelRow, plain, type TableModel, valued } from "./figure-table";
import { formatCount, formatPercent, UNDEFINED_FIGURE } from "./format";
import { type TrajectoryFilter, trajectoriesHref } from "./trajectory-filter";

const QUESTIONS = ["attempt", "success"] as const;

/** Cohen's κ as every agreement table writes it: two decimals, its interval "0.30 to 0.52" below. */
export const kappaText = (k: number | null) => (k === null ? UNDEFINED_FIGURE : k.toFixed(2));

/** Below this many pairs a κ and its interval are read with their counts, not alone. */
export const FEW_PAIRS = 10;

/**
 * Why a κ should not be read alone, or null: too few pairs for its interval to mean much; or nearly
 * every pair on one side (expected agreement p_e ≥ 0.9), where κ is low beside a high raw agreement
 * because of prevalence, not disagreement; or every pair on one side (κ undefined).
 */
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
  /** The download's scope: overall, condition, model, benchmark, judge, gold, version. */
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

/** Where each count of a human table opens: the labels it counted (`query`: the view's study and form). */
const labelLinks = (group: Group, query: string) => (q: Question) =>
  Object.fromEntries(
    CELLS.map((c) => [c, `/agreement/labels?group=${encodeURIComponent(groupText(group))}&q=${q}&cell=${c}${query}`]),
  ) as Record<Cell, string>;

const ANSWERS = {
  attempt: ["attempt", "no-attempt", "attempt", "NOT_ATTEMPTED"],
  success: ["success", "no-success", "SUCCESSFUL", "no-success"],
} as const;

/**
 * Where each count of a gold table opens: the trajectories of the group whose gold label says yes or
 * no × whose rater (the panel, or one judge) says yes or no. A trajectory has one gold label in force,
 * so it falls in one cell per rater.
 */
const goldLinks = (base: TrajectoryFilter, judge?: string) => (q: Question) => {
  const [refYes, refNo, raterYes, raterNo] = ANSWERS[q];
  const rater = (v: typeof raterYes | typeof raterNo): TrajectoryFilter =>
    judge ? { judge, judgeVerdict: v } : { panel: v };
  return {
    both_positive: trajectoriesHref({ ...base, gold: refYes, ...rater(raterYes) }),
    human_only: trajectoriesHref({ ...base, gold: refYes, ...rater(raterNo) }),
    judges_only: trajectoriesHref({ ...base, gold: refNo, ...rater(raterYes) }),
    both_negative: trajectoriesHref({ ...base, gold: refNo, ...rater(raterNo) }),
  };
};

export type AgreementTable = { id: string; heading: string; model: TableModel; note?: string };

type Linkers = ReturnType<typeof linkers>;

/** What the tables' counts open: none without a view (a download). */
function linkers(view?: { study: string | null; query: string }) {
  const within = (base: TrajectoryFilter): TrajectoryFilter => (view?.study ? { ...base, study: view.study } : base);
  return {
    human: (group: Group) => (view ? labelLinks(group, view.query) : undefined),
    gold: (base: TrajectoryFilter, judge?: string) => (view ? goldLinks(within(base), judge) : undefined),
  };
}

const conditionLabel = (c: { network: boolean; prompt: string }) => `network ${networkWords(c.network)}, ${c.prompt}`;

/**
 * The agreement report's tables in the page's order. `view`: the chosen study (its items bound the
 * gold tables' lists) and the query the label lists take; without it, nothing is linked (a download).
 */
export function agreementTables(r: AgreementReport, view?: { study: string | null; query: string }): AgreementTable[] {
  const links = linkers(view);
  const out = humanTables(r, links);
  if (r.gold) out.push(goldTable(r.gold, links));
  return out;
}

/** The panel and each judge against the annotators: overall, by condition, model, benchmark, judge. */
function humanTables(r: AgreementReport, { human }: Linkers): AgreementTable[] {
  return [
    {
      id: "agreement-conditions",
      heading: "Overall and by condition",
      model: agreementModel("conditions", "Agreement by condition", [
        { scope: "overall", label: "all labels", agreement: r.overall, links: human({ kind: "all" }) },
        ...r.by_condition.map((c) => ({
          scope: "condition",
          label: conditionLabel(c),
          agreement: c,
          links: human({ kind: "condition", network: c.network, prompt: c.prompt }),
        })),
      ]),
    },
    {
      id: "agreement-models",
      heading: "By model and benchmark",
      model: agreementModel("models", "Agreement by model and benchmark", [
        ...r.by_model.map((m) => ({
          scope: "model",
          label: m.model,
          agreement: m,
          links: human({ kind: "model", name: m.model }),
        })),
        ...r.by_benchmark.map((b) => ({
          scope: "benchmark",
          label: b.benchmark,
          agreement: b,
          links: human({ kind: "benchmark", name: b.benchmark }),
        })),
      ]),
    },
    {
      id: "agreement-judges",
      heading: "Each judge against the humans",
      model: agreementModel("judges", "Agreement per judge", [
        { scope: "judge", label: "panel", agreement: r.overall, links: human({ kind: "all" }) },
        ...r.judges.map((j) => ({
          scope: "judge",
          label: j.judge,
          agreement: j,
          links: human({ kind: "judge", name: j.judge }),
        })),
      ]),
    },
  ];
}

/** The panel, each judge and each annotator against the gold labels. */
function goldTable(g: NonNullable<AgreementReport["gold"]>, { human, gold }: Linkers): AgreementTable {
  return {
    id: "agreement-gold",
    heading: "Against the gold labels",
    note:
      "The panel (overall and by condition), each judge and each annotator (their newest label) against the gold " +
      "label in force on each trajectory (the newest, whoever adjudicated), the gold label taking the human's " +
      "part. A trajectory has one gold label in force, so each falls in one cell per rater: the counts of the " +
      "panel and the judges link to exactly their trajectories.",
    model: agreementModel(
      "gold",
      "Agreement with the gold labels",
      [
        { scope: "gold", label: "panel", agreement: g.panel, links: gold({ panel: "judged" }) },
        ...g.by_condition.map((c) => ({
          scope: "gold",
          label: `panel · ${conditionLabel(c)}`,
          agreement: c,
          links: gold({ network: c.network ? "on" : "off", prompt: c.prompt as TrajectoryFilter["prompt"] }),
        })),
        ...g.judges.map((j) => ({
          scope: "gold",
          label: `judge ${j.judge}`,
          agreement: j,
          links: gold({}, j.judge),
        })),
        ...g.annotators.map((a) => ({
          scope: "gold",
          label: `annotator ${a.annotator}`,
          agreement: a,
          links: human({ kind: "gold", name: a.annotator }),
        })),
      ],
      "Gold",
      "Rater",
    ),
  };
}

/** Each judge under each prompt version it answered in, against the humans and, where there are some, gold. */
export function versionTables(rows: readonly CalibrationRow[]): AgreementTable[] {
  const label = (r: CalibrationRow) => `${r.judge ?? "panel"} · prompt v${r.promptVersion}`;
  const out: AgreementTable[] = [
    {
      id: "agreement-versions",
      heading: "Judge prompt versions against the humans",
      model: agreementModel(
        "versions",
        "Agreement per judge and prompt version",
        rows.map((r) => ({ scope: "version", label: label(r), agreement: r })),
      ),
    },
  ];
  const gold = rows.flatMap((r) =>
    r.gold ? [{ scope: "version", label: `${label(r)} · against gold`, agreement: r.gold }] : [],
  );
  if (gold.length)
    out.push({
      id: "agreement-versions-gold",
      heading: "Judge prompt versions against the gold labels",
      model: agreementModel(
        "versions-gold",
        "Agreement per judge and prompt version with the gold labels",
        gold,
        "Gold",
      ),
    });
  return out;
}
