// A table of records driven by its columns: every list of the app (figures are FigureTable, raters RaterTable).
import type { ReactNode } from "react";
import { TableScroll } from "./table-scroll";

export type Column<T> = {
  key: string;
  label: ReactNode;
  /** Right-aligned figures. */
  numeric?: boolean;
  /** The cell names its row (a th with scope="row"). */
  rowHeader?: boolean;
  className?: string;
  cell: (row: T) => ReactNode;
};

export function DataTable<T>({
  columns,
  rows,
  rowKey,
  label,
  labelledBy,
  className,
  scroll = true,
}: {
  /** Columns left out (false, null) are skipped: a column some viewers do not get. */
  columns: ReadonlyArray<Column<T> | false | null>;
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** The table's accessible name, or the id of the heading that gives it. */
  label?: string;
  labelledBy?: string;
  className?: string;
  /** Wide tables scroll sideways in a box of their own (off inside a box that already does). */
  scroll?: boolean;
}) {
  const shown = columns.filter((c): c is Column<T> => !!c);
  const cellClass = (c: Column<T>) => [c.numeric ? "num" : "", c.className ?? ""].join(" ").trim() || undefined;
  const table = (
    <table aria-label={label} aria-labelledby={labelledBy} className={className}>
      <thead>
        <tr>
          {shown.map((c) => (
            <th key={c.key} scope="col" className={c.numeric ? "num" : undefined}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={rowKey(r)}>
            {shown.map((c) =>
              c.rowHeader ? (
                <th key={c.key} scope="row" className={cellClass(c)}>
                  {c.cell(r)}
                </th>
              ) : (
                <td key={c.key} className={cellClass(c)}>
                  {c.cell(r)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return scroll ? (
    <TableScroll label={label} labelledBy={labelledBy}>
      {table}
    </TableScroll>
  ) : (
    table
  );
}
