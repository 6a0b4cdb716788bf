"use client";
// A table of figures sorted in the browser; every row on the page (decision 50).

import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { useEffect, useMemo, useRef, useState } from "react";
import type { FigureCell, FigureRow, FigureTable as Table } from "@/lib/domain/figure-table";
import { TableScroll } from "./table-scroll";

const col = createColumnHelper<FigureRow>();

/** A link's accessible name holding what it shows (WCAG 2.5.3, label in name). */
const nameOf = (label: string | undefined, shown: string) =>
  label === undefined || label.includes(shown) ? label : `${label}: ${shown}`;

function Cell({ cell }: { cell: FigureCell }) {
  const shown = cell.strong ? <strong>{cell.text}</strong> : cell.text;
  return (
    <>
      {cell.href ? (
        <a
          href={cell.href}
          aria-label={nameOf(cell.label, cell.text)}
          title={cell.count === undefined ? undefined : `opens ${cell.count} trajectories`}
        >
          {shown}
        </a>
      ) : (
        shown
      )}
      {cell.sub ? <div className="ci">{cell.sub}</div> : null}
      {cell.parts ? (
        <div className="ci">
          {cell.parts.map((p, i) =>
            p.text === "\n" ? (
              <br key={i} />
            ) : p.href ? (
              <a key={i} href={p.href} aria-label={nameOf(p.label, p.text)} title={`opens ${p.count} trajectories`}>
                {p.text}
              </a>
            ) : (
              <span key={i}>{p.text}</span>
            ),
          )}
        </div>
      ) : null}
    </>
  );
}

/** A cell's classes: figures aligned right; a column left out on a phone's width. */
const cellClass = (numeric?: boolean, wideOnly?: boolean) =>
  [numeric ? "num" : "", wideOnly ? "wide-only" : ""].filter(Boolean).join(" ") || undefined;

/** Nulls last whichever the direction; numbers as numbers, text by locale. */
function compare(a: FigureCell["sort"], b: FigureCell["sort"]): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
}

/** The button below a long table, in sight: the rest of its rows, or its first rows only again. */
function Fold({ open, setOpen, rows }: { open: boolean; setOpen: (open: boolean) => void; rows: number }) {
  return (
    <p className="fold">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? `Show the first ${FOLD_AT} rows only` : `Show all ${rows} rows (${rows - FOLD_AT} more)`}
      </button>
    </p>
  );
}

/** Marks the box `fits` while the table fits, so the header stays in view; a wider one scrolls sideways. */
function useFits() {
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The page's sticky contents bar, if any: the header row stays below it, however many lines it wraps to.
    const bar = document.querySelector<HTMLElement>(".contents-bar");
    const check = () => {
      const table = el.querySelector("table");
      el.classList.toggle("fits", !!table && table.scrollWidth <= el.clientWidth);
      el.style.setProperty("--sticky-top", `${bar ? bar.offsetHeight : 0}px`);
    };
    check();
    const seen = new ResizeObserver(check);
    seen.observe(el);
    if (bar) seen.observe(bar);
    return () => seen.disconnect();
  }, []);
  return box;
}

/** Rows a long table shows before its "more rows" button; a table at most a few rows longer shows all. */
const FOLD_AT = 25;
const FOLD_SLACK = 5;

/** `whole`: every row at once (a frozen report, which is read and printed whole). */
export function FigureTable({ table, whole = false }: { table: Table; whole?: boolean }) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const [open, setOpen] = useState(false);
  const box = useFits();
  const columns = useMemo(
    () =>
      table.columns.map((c, i) =>
        col.accessor((r) => r.cells[i]?.sort ?? null, {
          id: c.key,
          header: c.label,
          meta: { numeric: c.numeric },
          sortUndefined: "last",
          sortingFn: (x, y, id) => compare(x.getValue(id), y.getValue(id)),
          cell: (ctx) => <Cell cell={ctx.row.original.cells[i]!} />,
        }),
      ),
    [table.columns],
  );
  const t = useReactTable({
    data: table.rows,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    // Ascending first for every column (tanstack starts numbers descending by default).
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.key,
  });
  const rows = t.getRowModel().rows;
  const folds = !whole && rows.length > FOLD_AT + FOLD_SLACK;
  const hidden = folds && !open ? rows.length - FOLD_AT : 0;
  return (
    <TableScroll label={table.title} className="figure-box" boxRef={box}>
      <table aria-label={table.title} id={table.id}>
        <thead>
          {t.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => {
                const dir = h.column.getIsSorted();
                const numeric = (h.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                return (
                  <th
                    key={h.id}
                    scope="col"
                    className={cellClass(numeric, table.columns[h.index]?.wideOnly)}
                    aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : undefined}
                  >
                    <button
                      type="button"
                      className="sort"
                      title="Sort by this column (again: the other way, then the table's own order)"
                      onClick={h.column.getToggleSortingHandler()}
                    >
                      {flexRender(h.column.columnDef.header, h.getContext())}
                      <span aria-hidden="true">{dir === "asc" ? " ↑" : dir === "desc" ? " ↓" : ""}</span>
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.map((r, at) => (
            <tr
              key={r.id}
              className={[r.original.className, hidden && at >= FOLD_AT ? "folded" : ""].filter(Boolean).join(" ")}
            >
              {r.getVisibleCells().map((c, i) => {
                const numeric = table.columns[i]?.numeric;
                return i === 0 ? (
                  <th key={c.id} scope="row">
                    {flexRender(c.column.columnDef.cell, c.getContext())}
                  </th>
                ) : (
                  <td key={c.id} className={cellClass(numeric, table.columns[i]?.wideOnly)}>
                    {flexRender(c.column.columnDef.cell, c.getContext())}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {folds ? <Fold open={open} setOpen={setOpen} rows={rows.length} /> : null}
    </TableScroll>
  );
}
