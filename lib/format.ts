// Display formatting shared by pages and exports. Undefined figures (null) show as an em dash.

export const UNDEFINED_FIGURE = "—";

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** A percentage with one decimal, or "—" when undefined. */
export function formatPercent(p: number | null, digits = 1): string {
  return p === null || !Number.isFinite(p) ? UNDEFINED_FIGURE : `${p.toFixed(digits)}%`;
}
