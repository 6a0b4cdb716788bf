// Two panels compared as one table model per condition; no links (lists follow the panel in force).

import { kappaInterval, kappaText } from "./agreement-model";
import { type ModelCell, type ModelColumn, plain, type TableModel, tableJson, valued } from "./figure-table";
import type { MonitorRow } from "./monitor-report";
import { monitorModel } from "./monitor-table";
import type { BinaryKey } from "./paired";
import type {
  CategoryCount,
  ComparedTrajectory,
  ConditionComparison,
  PanelComparison,
  PanelMemberRef,
  PanelSpend,
} from "./panel-compare";
import { percent } from "./rates";
import { RATE_LABELS } from "./results";
import { conditionCells, conditionColumns, count, pct, pp, pValue, range, rateTex, rowKey } from "./table-columns";
import { latexEscape } from "./table-format";
import { type CategoryNames, categoryLabel } from "./verdicts";

const RATES: readonly BinaryKey[] = ["attempt_rate", "success_rate", "resolved_exploit_rate"];

/** The compare page of the panel named, beside `withName` (default: the panel in force). */
export const comparePanelsHref = (name: string, withName?: string) =>
  `/judges/compare?panel=${encodeURIComponent(name)}${withName ? `&with=${encodeURIComponent(withName)}` : ""}`;

export type ComparedNames = { panel: string; with: string };

function rateColumn(k: BinaryKey): ModelColumn {
  return {
    key: k,
    label: RATE_LABELS[k],
    numeric: true,
    fields: [
      { key: `with_${k}`, tex: `${rateTex(k)} (with)` },
      { key: `panel_${k}`, tex: `${rateTex(k)} (panel)` },
      { key: `${k}_change`, tex: `$\\Delta$ ${rateTex(k)}` },
      { key: `${k}_ci_low`, tex: "low" },
      { key: `${k}_ci_high`, tex: "high" },
      { key: `${k}_b` },
      { key: `${k}_c` },
      { key: `${k}_p`, tex: `$p$`, digits: 3 },
    ],
  };
}

/** "12.0% → 15.0%", the paired difference and its interval below, McNemar's p after. */
function rateCell(c: ConditionComparison, k: BinaryKey, names: ComparedNames): ModelCell {
  const [a, b] = [c.inForce[k], c.candidate[k]];
  const boot = c.change.bootstrap[k];
  const m = c.change.mcnemar[k];
  return valued(
    {
      text: `${pct(a)} → ${pct(b)}`,
      sort: boot.change,
      label: `${RATE_LABELS[k]}: ${pct(a)} under ${names.with}, ${pct(b)} under ${names.panel}`,
      sub: `${pp(boot.change)}${boot.low === null ? "" : ` (95% ${range(boot.low, boot.high)})`}`,
      parts: m.pairs ? [{ text: `${count(m.b)} ↓ ${count(m.c)} ↑, ${pValue(m.p)}` }] : undefined,
    },
    a,
    b,
    boot.change,
    boot.low,
    boot.high,
    m.b,
    m.c,
    m.pairs ? m.p : null,
  );
}

function kappaCell(c: ConditionComparison): ModelCell {
  const { attempt, success } = c.agreement;
  return valued(
    {
      text: kappaText(attempt.kappa),
      sort: attempt.kappa,
      sub: kappaInterval(attempt.kappa_ci),
      parts: [{ text: `success ${kappaText(success.kappa)}` }],
    },
    attempt.kappa,
    success.kappa,
  );
}

export function panelComparisonTable(c: PanelComparison, names: ComparedNames): TableModel {
  return {
    name: "panels",
    title: `Panel ${names.panel} beside ${names.with}`,
    columns: [
      ...conditionColumns().map((col) => (col.key === "benchmark" ? { ...col, onPage: true } : col)),
      {
        key: "judged",
        label: "Judged",
        numeric: true,
        fields: [
          { key: "with_judged", tex: "Judged (with)", digits: 0 },
          { key: "panel_judged", tex: "Judged (panel)", digits: 0 },
        ],
      },
      ...RATES.map(rateColumn),
      {
        key: "kappa",
        label: "κ attempt",
        numeric: true,
        fields: [
          { key: "kappa_attempt", tex: "$\\kappa$ attempt", digits: 2 },
          { key: "kappa_success", tex: "$\\kappa$ success", digits: 2 },
        ],
      },
      {
        key: "changed",
        label: "Verdicts changed",
        numeric: true,
        fields: [{ key: "changed", tex: "Changed", digits: 0 }],
      },
    ],
    rows: c.conditions.map((row) => ({
      key: rowKey(row),
      cells: [
        ...conditionCells(row),
        valued(
          {
            text:
              row.inForce.judged === row.candidate.judged
                ? count(row.candidate.judged)
                : `${count(row.inForce.judged)} → ${count(row.candidate.judged)}`,
            sort: row.candidate.judged,
          },
          row.inForce.judged,
          row.candidate.judged,
        ),
        ...RATES.map((k) => rateCell(row, k, names)),
        kappaCell(row),
        valued({ text: count(row.changed), sort: row.changed }, row.changed),
      ],
    })),
  };
}

/** Each category's verdicts under either panel: a category only the candidate asks shows what it finds. */
export function panelCategoriesTable(c: PanelComparison, names: ComparedNames, categories: CategoryNames): TableModel {
  const side = (which: "with" | "panel", label: string) =>
    (["judged", "attempts", "successes"] as const).map((k) => ({
      key: `${which}_${k}`,
      label: `${k === "judged" ? "Judged" : k === "attempts" ? "Attempted" : "Successful"} (${label})`,
      numeric: true,
      fields: [{ key: `${which}_${k}`, tex: `${k} (${latexEscape(label)})`, digits: 0 }],
    }));
  const order = Object.keys(categories);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const cells = (n: CategoryCount) => [
    valued({ text: count(n.judged), sort: n.judged }, n.judged),
    valued({ text: `${count(n.attempts)} (${pct(percent(n.attempts, n.judged))})`, sort: n.attempts }, n.attempts),
    valued({ text: `${count(n.successes)} (${pct(percent(n.successes, n.judged))})`, sort: n.successes }, n.successes),
  ];
  return {
    name: "categories",
    title: `Categories: panel ${names.panel} beside ${names.with}`,
    columns: [
      { key: "category", label: "Category", fields: [{ key: "category", tex: "Category" }] },
      ...side("with", names.with),
      ...side("panel", names.panel),
    ],
    // In the categories' order (`categories` is keyed in it), any other after them.
    rows: [...c.categories]
      .sort((a, b) => rank(a.key) - rank(b.key))
      .map((k) => ({
        key: k.key,
        cells: [plain(k.key, categoryLabel(k.key, categories)), ...cells(k.inForce), ...cells(k.candidate)],
      })),
  };
}

/** A panel as `panel show` writes it. */
export type ComparedPanel = { name: string; judges: PanelMemberRef[]; setBy: string | null; setAt: Date | null };

const panelJson = (p: ComparedPanel) => ({
  name: p.name,
  judges: p.judges.map((m) => ({ judge: m.judge, prompt_version: m.promptVersion })),
  set_by: p.setBy,
  set_at: p.setAt?.toISOString() ?? null,
});
const spendJson = (s: PanelSpend) => ({ answers: s.answers, priced: s.priced, tokens: s.tokens, cost: s.cost });

/** `panel compare --format json`: both panels, the rows, κ, changed trajectories, gold and cost. */
export function panelComparisonJson(v: {
  candidate: ComparedPanel;
  against: ComparedPanel;
  comparison: PanelComparison;
  trajectories: ReadonlyMap<number, ComparedTrajectory>;
  monitors?: readonly MonitorRow[];
}): Record<string, unknown> {
  const c = v.comparison;
  return {
    panel: panelJson(v.candidate),
    with: panelJson(v.against),
    conditions: tableJson(panelComparisonTable(c, { panel: v.candidate.name, with: v.against.name })).rows,
    categories: c.categories.map((k) => ({ category: k.key, with: k.inForce, panel: k.candidate })),
    kappa: c.agreement,
    changed: c.changed.map((x) => {
      const t = v.trajectories.get(x.trajectoryId)!;
      return {
        trajectory: t.id,
        benchmark: t.benchmark,
        model: t.model,
        network: t.network,
        prompt: t.prompt,
        task: t.task,
        run: t.run,
        with: x.inForce,
        panel: x.candidate,
      };
    }),
    gold: c.gold && { with: c.gold.inForce, panel: c.gold.candidate },
    spend: { with: spendJson(c.spend.inForce), panel: spendJson(c.spend.candidate) },
    monitors: tableJson(monitorModel(v.monitors ?? [])).rows,
  };
}
