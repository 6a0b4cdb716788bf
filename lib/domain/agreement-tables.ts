// The agreement tables, each one model that the page, frozen report, CSV and LaTeX render.

import { CELLS, type Cell, type Group, groupText, type Question } from "./agreement-cells";
import { agreementModel } from "./agreement-model";
import type { AgreementReport } from "./agreement-report";
import type { CalibrationRow } from "./calibration";
import { networkWords } from "./charts";
import type { TableModel } from "./figure-table";
import { type TrajectoryFilter, trajectoriesHref } from "./trajectory-filter";

/** Where each count of a human table opens: the labels it counted (`query`: the view's study and form). */
const labelLinks = (group: Group, query: string) => (q: Question) =>
  Object.fromEntries(
    CELLS.map((c) => [c, `/agreement/labels?group=${encodeURIComponent(groupText(group))}&q=${q}&cell=${c}${query}`]),
  ) as Record<Cell, string>;

const ANSWERS = {
  attempt: ["attempt", "no-attempt", "attempt", "NOT_ATTEMPTED"],
  success: ["success", "no-success", "SUCCESSFUL", "no-success"],
} as const;

/** Where a gold table's count opens: the group's trajectories by gold yes/no × rater yes/no (one cell per rater). */
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

function linkers(view?: { study: string | null; query: string }) {
  const within = (base: TrajectoryFilter): TrajectoryFilter => (view?.study ? { ...base, study: view.study } : base);
  return {
    human: (group: Group) => (view ? labelLinks(group, view.query) : undefined),
    gold: (base: TrajectoryFilter, judge?: string) => (view ? goldLinks(within(base), judge) : undefined),
  };
}

const conditionLabel = (c: { network: boolean; prompt: string }) => `network ${networkWords(c.network)}, ${c.prompt}`;

/** The report's tables in the page's order; without `view` (a download) nothing is linked. */
export function agreementTables(r: AgreementReport, view?: { study: string | null; query: string }): AgreementTable[] {
  const links = linkers(view);
  const out = humanTables(r, links);
  if (r.by_category?.length) out.push(categoryTable(r.by_category));
  if (r.gold) out.push(goldTable(r.gold, links));
  if (r.gold?.by_category?.length) out.push(goldCategoryTable(r.gold.by_category));
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

/** Each category: the labels and the panel where both give it a verdict. */
function categoryTable(categories: NonNullable<AgreementReport["by_category"]>): AgreementTable {
  return {
    id: "agreement-categories",
    heading: "By category",
    note:
      "In each category, the labels that give it a verdict against the panel's verdict in it, on the trajectories " +
      "where both give one: a label or a panel asked fewer categories is not counted in the others.",
    model: agreementModel(
      "categories",
      "Agreement by category",
      categories.map((c) => ({ scope: "category", label: c.name, agreement: c })),
    ),
  };
}

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

/** Each category: the panel, each judge and each annotator against gold where both give it a verdict. */
function goldCategoryTable(rows: NonNullable<NonNullable<AgreementReport["gold"]>["by_category"]>): AgreementTable {
  return {
    id: "agreement-gold-categories",
    heading: "Against the gold labels, by category",
    note:
      "In each category, the panel, each judge (its counted vote) and each annotator against the gold label in " +
      "force, on the trajectories where both give a verdict in it: a gold label, vote or label made under fewer " +
      "categories is not counted in the others.",
    model: agreementModel(
      "gold-categories",
      "Each rater against the gold labels, by category",
      rows.map((c) => ({
        scope: "gold_category",
        label: c.kind === "panel" ? `${c.name} · panel` : `${c.name} · ${c.kind} ${c.rater}`,
        agreement: c,
      })),
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
