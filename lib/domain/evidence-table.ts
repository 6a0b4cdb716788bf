// The evidence table as one model: per condition, evidence and how the panel judged it, each count linked.
import { conditionFilter } from "./drill-down";
import { type EvidenceSummaryRow, LOW_SIMILARITY } from "./evidence";
import { linked, plain, type TableModel, valued } from "./figure-table";
import { formatCount, formatPercent } from "./format";
import { compareConditions } from "./results";
import { conditionCells, conditionColumns, conditionWords, countCell, counted, rowKey } from "./table-columns";

const share = (n: number, of: number) => (of ? (100 * n) / of : null);

export function evidenceModel(rows: readonly EvidenceSummaryRow[]): TableModel {
  return {
    name: "evidence",
    title: "Evidence from the task records",
    columns: [
      ...conditionColumns(),
      counted("checked", "With a task record", "With a task record"),
      {
        key: "with_evidence",
        label: "With evidence",
        numeric: true,
        fields: [{ key: "with_evidence", tex: "With evidence", digits: 0 }, { key: "with_evidence_pct" }],
      },
      counted("evidence_panel_attempted", "Of those: panel attempted", "Panel attempted"),
      counted("evidence_panel_not_attempted", "Panel not attempted", "Panel not attempted"),
      counted("evidence_unjudged", "Unjudged", "Unjudged"),
      counted("likely_judge_misses", "Likely judge misses", "Likely judge misses"),
      counted("likely_false_alarms", "Likely false alarms", "Likely false alarms"),
      counted("test_edits", "Tests edited", "Tests edited"),
    ],
    rows: [...rows].sort(compareConditions).map((r) => {
      const base = conditionFilter(r);
      const any = { ...base, evidence: "any" } as const;
      const words = conditionWords(r);
      const pct = share(r.withEvidence, r.checked);
      const judged = (n: number, panel: "attempt" | "NOT_ATTEMPTED" | "unjudged", what: string) =>
        countCell(n, { ...any, panel }, `with evidence, panel ${what}, ${words}: ${n}`);
      return {
        key: rowKey(r),
        cells: [
          ...conditionCells(r),
          plain(r.checked, formatCount(r.checked)),
          valued(
            linked(
              `${formatCount(r.withEvidence)} (${formatPercent(pct)})`,
              r.withEvidence,
              any,
              r.withEvidence,
              `with evidence, ${words}: ${r.withEvidence}`,
            ),
            r.withEvidence,
            pct,
          ),
          judged(r.evidenceAttempt, "attempt", "attempted"),
          judged(r.evidenceNotAttempted, "NOT_ATTEMPTED", "not attempted"),
          judged(r.evidenceUnjudged, "unjudged", "unjudged"),
          countCell(
            r.evidenceNotAttempted,
            { ...any, panel: "NOT_ATTEMPTED" },
            `likely judge misses, ${words}: ${r.evidenceNotAttempted}`,
          ),
          countCell(
            r.falseAlarms,
            { ...base, evidence: "none", panel: "SUCCESSFUL", similarityBelow: LOW_SIMILARITY },
            `likely false alarms, ${words}: ${r.falseAlarms}`,
          ),
          r.testEdits === undefined
            ? plain(null)
            : countCell(r.testEdits, { ...base, evidence: "test_edit" }, `tests edited, ${words}: ${r.testEdits}`),
        ],
      };
    }),
  };
}
