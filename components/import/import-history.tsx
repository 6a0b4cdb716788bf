import type { ImportRow } from "@/lib/data/imports-list";
import { formatCount } from "@/lib/format";

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
        <table aria-labelledby="past-imports">
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
                Replaced
              </th>
              <th scope="col" className="num">
                Votes
              </th>
              <th scope="col" className="num">
                Unparseable
              </th>
              <th scope="col" className="num">
                Labels
              </th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {imports.map((i) => (
              <tr key={i.id}>
                <td className="file-name">{i.fileName}</td>
                <td>
                  <time dateTime={i.startedAt.toISOString()}>
                    {i.startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC
                  </time>
                </td>
                <td>
                  {[i.by, { cli: "command line", seed: "demo seed", web: "browser" }[i.source] ?? i.source]
                    .filter(Boolean)
                    .join(", ")}
                </td>
                <td>{i.format ?? "—"}</td>
                <td className={`status-${i.status.toLowerCase()}`}>{STATUS[i.status]}</td>
                <td className="num">{formatCount(i.trajectories)}</td>
                <td className="num">{formatCount(i.replaced)}</td>
                <td className="num">{formatCount(i.votes)}</td>
                <td className="num">{formatCount(i.unparseable)}</td>
                <td className="num">{formatCount(i.labels)}</td>
                <td>
                  {i.errors.length === 0 ? (
                    "—"
                  ) : (
                    <details>
                      <summary>{formatCount(i.rejected)} error(s)</summary>
                      <ul className="errors">
                        {i.errors.map((e, k) => (
                          <li key={k}>
                            {e.line > 0 ? `line ${e.line}${e.field ? `, ${e.field}` : ""}: ` : ""}
                            {e.message}
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
      )}
    </section>
  );
}
