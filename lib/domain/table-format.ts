// Cell formatting shared by the CSV and LaTeX exports of both reports (results, agreement).

/** One CSV cell: empty for null, quoted when it holds a comma, quote or line break. */
export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** TeX's special characters escaped, for names that come from data. */
export function latexEscape(s: string): string {
  return s.replace(/[\\{}&%$#_^~]/g, (c) => ({ "\\": "\\textbackslash{}", "^": "\\textasciicircum{}", "~": "\\textasciitilde{}" })[c] ?? `\\${c}`);
}

/** A figure for a LaTeX table: fixed digits, "---" where undefined. */
export function latexNumber(v: number | null, digits = 1): string {
  return v === null ? "---" : v.toFixed(digits);
}
