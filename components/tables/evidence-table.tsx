// One benchmark's evidence table, or what to import when it has no task records.
import { FigureTable } from "@/components/tables/figure-table";
import { LOW_SIMILARITY } from "@/lib/domain/evidence";
import type { FigureTable as Table } from "@/lib/domain/figure-table";
import { shownText } from "@/lib/domain/text";

export function EvidenceTable({ benchmark, table }: { benchmark: string; table: Table }) {
  if (!table.rows.length)
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
        after the issue, a name of the upstream change, or an edit to the task&apos;s tests (a file of its test patch,
        or a conftest.py). Likely judge misses: evidence the panel called not attempted. Likely false alarms: panel
        successful, no evidence, and a final patch with similarity below {LOW_SIMILARITY} to the reference (or none).
        Tests edited: trajectories that edit them.
      </p>
      <FigureTable table={table} />
    </>
  );
}
