// The agreement figures as tables of figures (lib/domain/figure-table.ts), for a frozen report: the
// humans against the panel (overall, by condition, per judge) and every rater against the gold labels.
import { networkWords } from "./charts";
import type { BinaryAgreement } from "./agreement";
import type { Agreement, AgreementReport } from "./agreement-report";
import { formatCount, formatPercent, UNDEFINED_FIGURE } from "@/lib/format";
import { text, type FigureCell, type FigureRow, type FigureTable } from "./figure-table";

const num = (n: number): FigureCell => ({ text: formatCount(n), sort: n });
const kappa = (a: BinaryAgreement): FigureCell => ({
  text: a.kappa === null ? UNDEFINED_FIGURE : a.kappa.toFixed(2),
  sort: a.kappa,
  sub: a.kappa_ci ? `${a.kappa_ci[0].toFixed(2)} to ${a.kappa_ci[1].toFixed(2)}` : undefined,
});

function rows(group: string, a: Agreement): FigureRow[] {
  return (["attempt", "success"] as const).map((q) => {
    const x = a[q];
    return {
      key: `${group}\u0000${q}`,
      cells: [
        text(group),
        text(q),
        num(x.n),
        { text: formatPercent(x.agreement), sort: x.agreement },
        kappa(x),
        num(x.both_positive),
        num(x.both_negative),
        num(x.human_only),
        num(x.judges_only),
      ],
    };
  });
}

function table(id: string, title: string, reference: string, rater: string, groups: FigureRow[]): FigureTable {
  return {
    id,
    title,
    columns: [
      { key: "group", label: "Group" },
      { key: "question", label: "Question" },
      { key: "n", label: "n", numeric: true },
      { key: "agreement", label: "Agreement", numeric: true },
      { key: "kappa", label: "Cohen's κ (95%)", numeric: true },
      { key: "both_yes", label: "Both yes", numeric: true },
      { key: "both_no", label: "Both no", numeric: true },
      { key: "reference_only", label: `${reference} only`, numeric: true },
      { key: "rater_only", label: `${rater} only`, numeric: true },
    ],
    rows: groups,
  };
}

export function agreementTables(r: AgreementReport): FigureTable[] {
  const out = [
    table("agreement-humans", "Human labels against the panel", "Human", "Judges", [
      ...rows("all labels", r.overall),
      ...r.by_condition.flatMap((c) => rows(`network ${networkWords(c.network)}, ${c.prompt}`, c)),
      ...r.judges.flatMap((j) => rows(`judge ${j.judge}`, j)),
    ]),
  ];
  if (r.gold)
    out.push(
      table("agreement-gold", "Against the gold labels", "Gold", "Rater", [
        ...rows("panel", r.gold.panel),
        ...r.gold.by_condition.flatMap((c) => rows(`panel · network ${networkWords(c.network)}, ${c.prompt}`, c)),
        ...r.gold.judges.flatMap((j) => rows(`judge ${j.judge}`, j)),
        ...r.gold.annotators.flatMap((a) => rows(`annotator ${a.annotator}`, a)),
      ]),
    );
  return out;
}
