// Tables of figures as data: a model built once, its page table and downloads written from it.
import { csvCell, latexEscape, latexNumber } from "./table-format";
import { type TrajectoryFilter, trajectoriesHref } from "./trajectory-filter";

export type FigureCell = {
  text: string;
  /** The value the column sorts by; null sorts last. */
  sort: number | string | null;
  /** A second line in small type (an interval, a p-value). */
  sub?: string;
  /** The trajectory list the figure opens, and the number of trajectories that list holds. */
  href?: string;
  count?: number;
  label?: string;
  strong?: boolean;
  /** Further figures after the sub line, each linked where it counts trajectories ("\n": a new line). */
  parts?: FigurePart[];
};
export type FigurePart = { text: string; href?: string; count?: number; label?: string };

/** `wideOnly`: left out on a phone's width, where the key figures come first (counts a reader can open later). */
export type FigureColumn = { key: string; label: string; numeric?: boolean; wideOnly?: boolean };
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

/** A column is a page column and one or more download fields (a rate, then its interval's ends). */
export type Value = string | number | boolean | null;
/** A download column: its CSV header, its LaTeX header (a field without one is left out of LaTeX), its digits. */
export type Field = { key: string; tex?: string; digits?: number };
export type ModelColumn = FigureColumn & {
  fields: Field[];
  /** Which field's value the page's figure shows (the first by default). */
  shows?: number;
  /** Shown on pages (default) or in downloads only. */
  onPage?: boolean;
};
export type ModelCell = FigureCell & { values: Value[] };
export type ModelRow = { key: string; cells: ModelCell[]; className?: string };
export type TableModel = {
  name: string;
  title: string;
  columns: ModelColumn[];
  rows: ModelRow[];
};

/** A cell that is its value, shown as `shown` (default: as text). */
export const plain = (value: Value, shown: string = value === null ? "" : String(value)): ModelCell => ({
  text: shown,
  sort: typeof value === "boolean" ? String(value) : value,
  values: [value],
});

/** A page figure with the values the downloads carry for it. */
export const valued = (cell: FigureCell, ...values: Value[]): ModelCell => ({ ...cell, values });

/** The page's table: the columns shown on pages, each cell without its download values. */
export function pageTable(m: TableModel, id: string, title: string): FigureTable {
  const shown = m.columns.flatMap((c, i) => (c.onPage === false ? [] : [i]));
  return {
    id,
    title,
    columns: shown.map((i) => {
      const { fields: _f, onPage: _o, shows: _s, ...c } = m.columns[i]!;
      return c;
    }),
    rows: m.rows.map((r) => ({
      ...r,
      cells: shown.map((i) => {
        const { values: _v, ...cell } = r.cells[i]!;
        return cell;
      }),
    })),
  };
}

/** The download's rows: each cell's values, laid out by its column's fields. */
function fieldRows(m: TableModel): { fields: Field[]; rows: Value[][] } {
  const fields = m.columns.flatMap((c) => c.fields);
  const rows = m.rows.map((r) => m.columns.flatMap((c, i) => c.fields.map((_, j) => r.cells[i]?.values[j] ?? null)));
  return { fields, rows };
}

/** The table as JSON: its name and title, and one object per row keyed by the CSV's headers, values unrounded. */
export function tableJson(m: TableModel): { table: string; title: string; rows: Array<Record<string, Value>> } {
  const { fields, rows } = fieldRows(m);
  return {
    table: m.name,
    title: m.title,
    rows: rows.map((row) => Object.fromEntries(fields.map((f, i) => [f.key, row[i] ?? null]))),
  };
}

export function tableCsv(m: TableModel): string {
  const { fields, rows } = fieldRows(m);
  const lines = [fields.map((f) => f.key), ...rows].map((row) => row.map(csvCell).join(","));
  return `${lines.join("\n")}\n`;
}

function texCell(v: Value, f: Field): string {
  if (typeof v === "number") return latexNumber(v, f.digits ?? 1);
  if (v === null) return "---";
  if (typeof v === "boolean") return v ? "\\checkmark" : "$\\times$";
  return latexEscape(v);
}

/** A booktabs tabular of the fields that have a LaTeX header, a rule between groups of the first column. */
export function tableLatex(m: TableModel): string {
  const { fields, rows } = fieldRows(m);
  const shown = fields.flatMap((f, i) => (f.tex ? [{ f, i }] : []));
  const align = shown.map(({ i }) => (rows.some((r) => typeof r[i] === "number") ? "r" : "l")).join("");
  const out = [
    `% ${m.title}. Rates and changes in percent (points); --- where undefined.`,
    `\\begin{tabular}{${align}}`,
    "\\toprule",
    `${shown.map(({ f }) => f.tex).join(" & ")} \\\\`,
    "\\midrule",
  ];
  let previous: Value = null;
  for (const row of rows) {
    if (previous !== null && previous !== row[0]) out.push("\\midrule");
    previous = row[0] ?? null;
    out.push(`${shown.map(({ f, i }) => texCell(row[i] ?? null, f)).join(" & ")} \\\\`);
  }
  out.push("\\bottomrule", "\\end{tabular}");
  return `${out.join("\n")}\n`;
}
