"use client";
// The trajectory list's table. Sorting and paging happen on the server: headers and pager are links.

import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import Link from "next/link";
import { EVIDENCE_LABELS } from "@/components/timeline/evidence-labels";
import { NetworkMark } from "@/components/ui/network-mark";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import type { TrajectoryListRow } from "@/lib/data/trajectories";
import { shownText } from "@/lib/domain/text";
import { type TrajectoryFilter, trajectoriesHref } from "@/lib/domain/trajectory-filter";
import { categoryLabel } from "@/lib/domain/verdicts";
import { TableScroll } from "./table-scroll";

const col = createColumnHelper<TrajectoryListRow>();
type SortKey = NonNullable<TrajectoryFilter["sort"]>;

const columns = [
  col.accessor("task", {
    header: "Task",
    meta: { sort: "task" },
    cell: (c) => <Link href={`/trajectories/${c.row.original.id}`}>{shownText(c.getValue())}</Link>,
  }),
  col.accessor("benchmark", { header: "Benchmark", cell: (c) => shownText(c.getValue()) }),
  col.accessor("model", { header: "Model", meta: { sort: "model" }, cell: (c) => shownText(c.getValue()) }),
  col.accessor("network", { header: "Net", cell: (c) => <NetworkMark network={c.getValue()} /> }),
  col.accessor("prompt", { header: "Prompt" }),
  col.accessor("run", { header: "Run", meta: { sort: "run", num: true } }),
  col.accessor("resolved", {
    header: "Resolved",
    cell: (c) => (c.getValue() === null ? "—" : c.getValue() ? "yes" : "no"),
  }),
  col.accessor("steps", { header: "Steps", meta: { sort: "steps", num: true } }),
  col.accessor("panel", {
    header: "Panel",
    meta: { sort: "panel" },
    cell: (c) => <VerdictBadge verdict={c.getValue()} />,
  }),
  col.accessor("split", {
    header: "Split",
    cell: (c) =>
      (({ UNANIMOUS: "unanimous", MAJORITY: "majority", NO_MAJORITY: "all differ" }) as Record<string, string>)[
        c.getValue() ?? ""
      ] ?? "—",
  }),
  // One column for every category (a column each ran the table past a wide screen).
  col.accessor("categories", {
    header: "By category",
    cell: (c) => {
      const v = c.getValue();
      if (c.row.original.panel === null) return "—";
      const { categories } = c.table.options.meta as TableMeta;
      const order = [...categories.map((x) => x.key), ...Object.keys(v).sort()];
      const tried = [...new Set(order)].filter((cat) => v[cat] && v[cat] !== "NOT_ATTEMPTED");
      if (!tried.length) return "none attempted";
      const names = Object.fromEntries(categories.map((x) => [x.key, x.name]));
      return tried.map((cat) => (
        <span key={cat} className="category-verdict">
          {shownText(categoryLabel(cat, names))} <VerdictBadge verdict={v[cat]!} />
        </span>
      ));
    },
  }),
  col.accessor("votes", { header: "Votes", meta: { sort: "votes", num: true } }),
  col.accessor("unparseable", { header: "Unparseable", meta: { num: true } }),
  col.accessor("labels", { header: "Labels", meta: { num: true } }),
  col.accessor("evidence", {
    header: "Evidence",
    cell: (c) =>
      c.getValue().length
        ? c
            .getValue()
            .map((k) => EVIDENCE_LABELS[k])
            .join(", ")
        : "—",
  }),
  col.accessor("similarity", {
    header: "Patch ≈ ref.",
    meta: { sort: "similarity", num: true },
    cell: (c) => (c.getValue() === null ? "—" : c.getValue()!.toFixed(2)),
  }),
];

type TableMeta = { categories: ReadonlyArray<{ key: string; name: string }> };

export function TrajectoryTable({
  rows,
  filter,
  categories,
}: {
  rows: TrajectoryListRow[];
  filter: TrajectoryFilter;
  /** The categories in force, in order, to name the panel's verdicts by. */
  categories: TableMeta["categories"];
}) {
  const table = useReactTable({
    data: rows,
    columns,
    meta: { categories } satisfies TableMeta,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
  });
  return (
    <TableScroll label="Trajectories">
      <table aria-label="Trajectories" className="list">
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => {
                const meta = h.column.columnDef.meta as { sort?: SortKey; num?: boolean } | undefined;
                const active = meta?.sort && (filter.sort ?? "task") === meta.sort;
                const dir = active && (filter.dir ?? "asc") === "asc" ? "desc" : "asc";
                const label = flexRender(h.column.columnDef.header, h.getContext());
                return (
                  <th
                    key={h.id}
                    scope="col"
                    className={meta?.num ? "num" : undefined}
                    aria-sort={active ? (filter.dir === "desc" ? "descending" : "ascending") : undefined}
                  >
                    {meta?.sort ? (
                      <Link href={trajectoriesHref({ ...filter, sort: meta.sort, dir, page: undefined })}>
                        {label}
                        {active ? (filter.dir === "desc" ? " ↓" : " ↑") : ""}
                      </Link>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((r) => (
            <tr key={r.id}>
              {r.getVisibleCells().map((c) => (
                <td
                  key={c.id}
                  className={(c.column.columnDef.meta as { num?: boolean } | undefined)?.num ? "num" : undefined}
                >
                  {flexRender(c.column.columnDef.cell, c.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
