import { type Column, DataTable } from "@/components/tables/data-table";
import type { ImportRow } from "@/lib/data/import/history";
import { formatCount, formatTime } from "@/lib/domain/format";
import { recordUnit, warningText } from "@/lib/formats/audit";

const STATUS: Record<ImportRow["status"], string> = {
  SUCCEEDED: "imported",
  FAILED: "rejected",
  RUNNING: "running, or interrupted",
};

/** Past imports: file, when, by whom, what it brought, and why it was rejected. */
export function ImportHistory({ imports }: { imports: ImportRow[] }) {
  return (
    <section aria-labelledby="past-imports">
      <h2 id="past-imports">Past imports</h2>
      {imports.length === 0 ? (
        <p className="empty">No imports yet.</p>
      ) : (
        <DataTable
          labelledBy="past-imports"
          className="import-history"
          rows={imports}
          rowKey={(i) => i.id}
          columns={COLUMNS}
        />
      )}
    </section>
  );
}

const sub = (n: number, what: string) => (n > 0 ? <small className="sub">{`${formatCount(n)} ${what}`}</small> : null);

const COLUMNS: Column<ImportRow>[] = [
  { key: "file", label: "File", className: "file-name", cell: (i) => i.fileName },
  {
    key: "when",
    label: "When",
    cell: (i) => <time dateTime={i.startedAt.toISOString()}>{formatTime(i.startedAt)} UTC</time>,
  },
  {
    key: "by",
    label: "By",
    cell: (i) =>
      [i.by, { cli: "command line", seed: "demo seed", web: "browser" }[i.source] ?? i.source]
        .filter(Boolean)
        .join(", "),
  },
  { key: "format", label: "Format", cell: (i) => i.format ?? "—" },
  {
    key: "status",
    label: "Status",
    cell: (i) => <span className={`status-${i.status.toLowerCase()}`}>{STATUS[i.status]}</span>,
  },
  {
    key: "trajectories",
    label: "Trajectories",
    numeric: true,
    cell: (i) => (
      <>
        {formatCount(i.trajectories)}
        {sub(i.replaced, "replaced")}
        {sub(i.unchanged, "unchanged")}
        {sub(i.taskRecords, "task records")}
      </>
    ),
  },
  {
    key: "votes",
    label: "Votes",
    numeric: true,
    cell: (i) => (
      <>
        {formatCount(i.votes)}
        {sub(i.unparseable, "unparseable")}
      </>
    ),
  },
  {
    key: "labels",
    label: "Labels",
    numeric: true,
    cell: (i) => (
      <>
        {formatCount(i.labels)}
        {sub(i.gold, "gold")}
      </>
    ),
  },
  {
    key: "read",
    label: "Read",
    numeric: true,
    className: "nowrap",
    cell: (i) =>
      i.assistantTurns ? (
        <>
          {formatCount(i.assistantTurns)} turns
          <br />
          {formatCount(i.toolCalls)} tool calls
        </>
      ) : (
        "—"
      ),
  },
  { key: "problems", label: "Errors and warnings", cell: (i) => <Problems i={i} /> },
];

/** An import's errors and warnings, each list folded, each item with its line or record. */
function Problems({ i }: { i: ImportRow }) {
  return (
    <>
      {i.errors.length === 0 && i.warningCount === 0 && "—"}
      {i.errors.length > 0 && (
        <details>
          <summary>{formatCount(i.rejected)} error(s)</summary>
          <ul className="errors">
            {i.errors.map((e, k) => (
              <li key={k}>
                {e.line > 0 ? `${recordUnit(i.fileName)} ${e.line}${e.field ? `, ${e.field}` : ""}: ` : ""}
                {e.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {i.warningCount > 0 && (
        <details className="warnings">
          <summary>{formatCount(i.warningCount)} warning(s)</summary>
          <ul>
            {i.warnings.map((w, k) => (
              <li key={k}>
                {recordUnit(i.fileName)} {w.line}: {warningText(w)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
