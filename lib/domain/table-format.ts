// Cell formatting shared by the CSV and LaTeX exports of both reports (results, agreement).

/**
 * One CSV cell: empty for null, quoted when it holds a comma, quote or line break. Text that a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return: a model
 * or benchmark name comes from imported data) gets a leading apostrophe, as OWASP advises, so it
 * shows as text. Numbers are written as numbers: -12.5 stays a figure.
 */
export function csvCell(v: unknown): string {
  const raw = v === null || v === undefined ? "" : String(v);
  const s = typeof v !== "number" && typeof v !== "bigint" && /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** TeX's special characters escaped, for names that come from data. */
export function latexEscape(s: string): string {
  return s.replace(
    /[\\{}&%$#_^~]/g,
    (c) => ({ "\\": "\\textbackslash{}", "^": "\\textasciicircum{}", "~": "\\textasciitilde{}" })[c] ?? `\\${c}`,
  );
}

/** A figure for a LaTeX table: fixed digits, "---" where undefined. */
export function latexNumber(v: number | null, digits = 1): string {
  return v === null ? "---" : v.toFixed(digits);
}
