// A table of figures as data: what the server computes and a client table sorts without a reload
// (components/tables/figure-table.tsx). A linked cell names the trajectory list it opens and how many
// trajectories that list holds, so a test can walk every link and check its count.
import { trajectoriesHref, type TrajectoryFilter } from "./trajectory-filter";

export type FigureCell = {
  text: string;
  /** The value the column sorts by; null sorts last. */
  sort: number | string | null;
  /** A second line in small type (an interval, a p-value). */
  sub?: string;
  /** The trajectory list the figure opens, and the number of trajectories that list holds. */
  href?: string;
  count?: number;
  /** The link's accessible name (defaults to the text). */
  label?: string;
  /** Show the text in bold (a panel row). */
  strong?: boolean;
  /** Further figures after the sub line, each linked where it counts trajectories ("\n": a new line). */
  parts?: FigurePart[];
};
export type FigurePart = { text: string; href?: string; count?: number; label?: string };

export type FigureColumn = { key: string; label: string; numeric?: boolean };
export type FigureRow = { key: string; cells: FigureCell[]; className?: string };
export type FigureTable = { id: string; title: string; columns: FigureColumn[]; rows: FigureRow[] };

export const text = (t: string): FigureCell => ({ text: t, sort: t });

/** A figure that opens the trajectories of `filter`, which are `count` in number. */
export function linked(
  shown: string,
  sort: number | null,
  filter: TrajectoryFilter,
  count: number,
  label?: string,
): FigureCell {
  return { text: shown, sort, href: trajectoriesHref(filter), count, ...(label ? { label } : {}) };
}

/** An HTML id from a name that comes from data. */
export const anchor = (prefix: string, name: string) => `${prefix}-${name.replace(/[^\w-]/g, "_")}`;

/** The same table with no link: for a reader who may open nothing but it (a shared report). */
export function unlinked(t: FigureTable): FigureTable {
  return {
    ...t,
    rows: t.rows.map((r) => ({
      ...r,
      cells: r.cells.map(({ href: _h, count: _c, label: _l, ...c }) => ({
        ...c,
        ...(c.parts ? { parts: c.parts.map((p) => ({ text: p.text })) } : {}),
      })),
    })),
  };
}
