import type { ImportRow } from "@/lib/data/import/history";
import { formatCount, formatTime } from "@/lib/domain/format";
import { recordUnit, warningText } from "@/lib/import/read/audit";

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
        <div className="table-scroll">
          <table aria-labelledby="past-imports" className="import-history">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">When</th>
                <th scope="col">By</th>
                <th scope="col">Format</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Trajectories
                </th>
                <th scope="col" className="num">
                  Votes
                </th>
                <th scope="col" className="num">
                  Labels
                </th>
                <th scope="col" className="num">
                  Read
                </th>
                <th scope="col">Errors and warnings</th>
              </tr>
            </thead>
            <tbody>
              {imports.map((i) => (
                <tr key={i.id}>
                  <td className="file-name">{i.fileName}</td>
                  <td>
                    <time dateTime={i.startedAt.toISOString()}>{formatTime(i.startedAt)} UTC</time>
                  </td>
                  <td>
                    {[i.by, { cli: "command line", seed: "demo seed", web: "browser" }[i.source] ?? i.source]
                      .filter(Boolean)
                      .join(", ")}
                  </td>
                  <td>{i.format ?? "—"}</td>
                  <td className={`status-${i.status.toLowerCase()}`}>{STATUS[i.status]}</td>
                  <td className="num">
                    {formatCount(i.trajectories)}
                    {i.replaced > 0 && <small className="sub">{formatCount(i.replaced)} replaced</small>}
                    {i.taskRecords > 0 && <small className="sub">{formatCount(i.taskRecords)} task records</small>}
                  </td>
                  <td className="num">
                    {formatCount(i.votes)}
                    {i.unparseable > 0 && <small className="sub">{formatCount(i.unparseable)} unparseable</small>}
                  </td>
                  <td className="num">
                    {formatCount(i.labels)}
                    {i.gold > 0 && <small className="sub">{formatCount(i.gold)} gold</small>}
                  </td>
                  <td className="num nowrap">
                    {i.assistantTurns ? (
                      <>
                        {formatCount(i.assistantTurns)} turns
                        <br />
                        {formatCount(i.toolCalls)} tool calls
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>
                    {i.errors.length === 0 && i.warningCount === 0 && "—"}
                    {i.errors.length > 0 && (
                      <details>
                        <summary>{formatCount(i.rejected)} error(s)</summary>
                        <ul className="errors">
                          {i.errors.map((e, k) => (
                            <li key={k}>
                              {e.line > 0
                                ? `${recordUnit(i.fileName)} ${e.line}${e.field ? `, ${e.field}` : ""}: `
                                : ""}
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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
