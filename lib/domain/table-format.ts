// Cell formatting shared by the CSV and LaTeX exports of both reports (results, agreement).

/**
 * One CSV cell: empty for null, quoted when it holds a comma, quote or line break. Text that a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return: a model
 * or benchmark name comes from imported data) gets a leading apostrophe, as OWASP advises, so it
 * shows as text. Numbers are written as numbers: -12.5 stays a figure, at most 12 significant
 * digits (csvNumber).
 */
export function csvCell(v: unknown): string {
  const raw = v === null || v === undefined ? "" : typeof v === "number" ? csvNumber(v) : String(v);
  const s = typeof v !== "number" && typeof v !== "bigint" && /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * A number as a CSV writes it: at most 12 significant digits and 10 decimals, so the noise of
 * floating point (0.30000000000000004, a bound of 2.7755575615628914e-15 that is 0) does not stand
 * as a figure; integers whole. (Figures are percentages, points, counts, κ and p: 10 decimals hold
 * every digit they mean; a p below 0.5e-10 is written 0.)
 */
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
