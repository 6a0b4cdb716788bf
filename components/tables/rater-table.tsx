// Raters × categories: a row per rater, overall first, and under it what the rater said, wrapping.
import type { ReactNode } from "react";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import type { Verdict, Verdicts } from "@/lib/domain/verdicts";
import { TableScroll } from "./table-scroll";

export type RaterRow = {
  key: string;
  /** The row's heading: the rater and what to know of them. */
  rater: ReactNode;
  verdicts: Verdicts;
  overall: Verdict | null;
  /** Under the overall verdict (how it was counted). */
  overallNote?: ReactNode;
  /** The row under it, the table's whole width; its accessible name, when given. */
  said?: { content: ReactNode; label?: string };
  /** The panel's rows are set apart. */
  panel?: boolean;
};

export function RaterTable({
  labelledBy,
  raterHeading,
  categories,
  rows,
}: {
  labelledBy: string;
  raterHeading: string;
  /** The columns: the categories the rows give, in order; a row without a verdict in one shows none. */
  categories: ReadonlyArray<{ key: string; name: string }>;
  rows: RaterRow[];
}) {
  return (
    <TableScroll labelledBy={labelledBy}>
      <table aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">{raterHeading}</th>
            <th scope="col">Overall</th>
            {categories.map((c) => (
              <th key={c.key} scope="col">
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.flatMap((r) => [
            <tr key={r.key} className={rowClass(r.panel, r.said && "said-follows")}>
              <th scope="row">{r.rater}</th>
              <td>
                <VerdictBadge verdict={r.overall} />
                {r.overallNote}
              </td>
              {categories.map((c) => (
                <td key={c.key}>
                  <VerdictBadge verdict={r.verdicts[c.key] ?? null} />
                </td>
              ))}
            </tr>,
            r.said ? (
              <tr key={`${r.key}-said`} className={rowClass(r.panel, "said-row")}>
                <td colSpan={categories.length + 2} className="text" aria-label={r.said.label}>
                  {r.said.content}
                </td>
              </tr>
            ) : null,
          ])}
        </tbody>
      </table>
    </TableScroll>
  );
}

const rowClass = (panel: boolean | undefined, other: string | undefined) =>
  [panel ? "panel-row" : "", other ?? ""].filter(Boolean).join(" ") || undefined;
