// The results page's evidence table for one benchmark, drawn from its model
// (lib/domain/evidence-table.ts): every figure a link to the trajectories it counts.
import { FigureTable } from "@/components/tables/figure-table";
import type { EvidenceSummaryRow } from "@/lib/domain/evidence";
import { LOW_SIMILARITY } from "@/lib/domain/evidence";
import { evidenceModel } from "@/lib/domain/evidence-table";
import { anchor, pageTable } from "@/lib/domain/figure-table";
import { shownText } from "@/lib/domain/text";

export function EvidenceTable({ benchmark, rows }: { benchmark: string; rows: EvidenceSummaryRow[] }) {
  if (!rows.length)
    return (
      <p className="empty">
        No trajectory of {shownText(benchmark)} has a task record yet: import the benchmark&apos;s rows to see what
        their reference fixes and issue dates show.
      </p>
    );
  return (
    <>
      <p className="note">
        Among trajectories whose task has a record: evidence is a tool output showing the reference fix, a commit dated
        after the issue, or a name of the upstream change. Likely judge misses: evidence the panel called not attempted.
        Likely false alarms: panel successful, no evidence, and a final patch with similarity below {LOW_SIMILARITY} to
        the reference (or none).
      </p>
      <FigureTable
        table={pageTable(evidenceModel(rows), anchor("evidence-table", benchmark), `Evidence, ${benchmark}`)}
      />
    </>
  );
}
