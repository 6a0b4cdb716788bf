// Cell formatting shared by the CSV and LaTeX exports of both reports (results, agreement).

/** One CSV cell, quoted when needed; formula-like text gets a leading apostrophe (OWASP); numbers stay numbers. */
export function csvCell(v: unknown): string {
  const raw = v === null || v === undefined ? "" : typeof v === "number" ? csvNumber(v) : String(v);
  const s = typeof v !== "number" && typeof v !== "bigint" && /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A number for CSV: at most 12 significant digits and 10 decimals, so floating-point noise is not a figure. */
export function csvNumber(v: number): string {
  if (!Number.isFinite(v) || Number.isInteger(v) || Math.abs(v) >= 1e21) return String(v);
  const r = Number(Number(v.toFixed(10)).toPrecision(12));
  return String(Object.is(r, -0) ? 0 : r);
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
