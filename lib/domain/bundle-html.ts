// A bundle's pages as HTML: the report's sections written from their table models, every text escaped.
import type { FigureCell, FigurePart, FigureTable } from "./figure-table";
import type { ReportSection } from "./report-sections";

/** No request leaves the folder: scripts, styles and images from it only, nothing fetched, no form sent. */
export const BUNDLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'none'; " +
  "base-uri 'none'; form-action 'none'";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A link's target in the bundle: the list of one figure's trajectories (null: the figure links nothing). */
export type LinkTarget = (href: string) => { set: number; count: number } | null;

const nameOf = (label: string | undefined, shown: string) =>
  label === undefined || label.includes(shown) ? label : `${label}: ${shown}`;

function link(text: string, href: string | undefined, label: string | undefined, target: LinkTarget, strong = false) {
  const shown = strong ? `<strong>${escapeHtml(text)}</strong>` : escapeHtml(text);
  const to = href ? target(href) : null;
  if (!to) return shown;
  const name = nameOf(label, text);
  return `<a href="list.html#set=${to.set}"${name ? ` aria-label="${escapeHtml(name)}"` : ""} title="opens ${
    to.count
  } trajectories">${shown}</a>`;
}

const part = (p: FigurePart, target: LinkTarget) =>
  p.text === "\n" ? "<br>" : p.href ? link(p.text, p.href, p.label, target) : `<span>${escapeHtml(p.text)}</span>`;

function cell(c: FigureCell, target: LinkTarget): string {
  return [
    link(c.text, c.href, c.label, target, c.strong),
    c.sub ? `<div class="ci">${escapeHtml(c.sub)}</div>` : "",
    c.parts ? `<div class="ci">${c.parts.map((p) => part(p, target)).join("")}</div>` : "",
  ].join("");
}

export function tableHtml(t: FigureTable, target: LinkTarget): string {
  const cls = (numeric?: boolean, wide?: boolean) => {
    const c = [numeric ? "num" : "", wide ? "wide-only" : ""].filter(Boolean).join(" ");
    return c ? ` class="${c}"` : "";
  };
  const head = t.columns.map((c) => `<th scope="col"${cls(c.numeric, c.wideOnly)}>${escapeHtml(c.label)}</th>`);
  const rows = t.rows.map(
    (r) =>
      `<tr${r.className ? ` class="${escapeHtml(r.className)}"` : ""}>${r.cells
        .map((c, i) => `<td${cls(t.columns[i]?.numeric, t.columns[i]?.wideOnly)}>${cell(c, target)}</td>`)
        .join("")}</tr>`,
  );
  const title = escapeHtml(t.title);
  const table = `<table aria-label="${title}" id="${escapeHtml(t.id)}">`;
  const parts = `<thead><tr>${head.join("")}</tr></thead><tbody>${rows.join("")}</tbody>`;
  const box = `<section class="table-scroll figure-box" tabindex="0" aria-label="${title}">`;
  return `${box}${table}${parts}</table></section>`;
}

const tableBlock = (t: ReportSection["tables"][number], target: LinkTarget) =>
  `<div><h3>${escapeHtml(t.heading)}</h3>${tableHtml(t.table, target)}${(t.notes ?? [])
    .map((n) => `<p class="note" role="note">${escapeHtml(n)}</p>`)
    .join("")}</div>`;

export function sectionsHtml(sections: readonly ReportSection[], target: LinkTarget): string {
  return sections
    .map((s) => {
      const id = escapeHtml(s.id);
      const tables = s.tables.map((t) => tableBlock(t, target)).join("");
      const heading = `<h2 id="${id}">${escapeHtml(s.heading)}</h2>`;
      return `<section aria-labelledby="${id}" class="benchmark-section">${heading}${tables}</section>`;
    })
    .join("\n");
}

/** A page of the bundle: its CSP, the app's styles, a way back to the report and the list. */
export function page(title: string, body: string, scripts: readonly string[] = []): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${BUNDLE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="assets/app.css"><link rel="stylesheet" href="assets/bundle.css">
</head><body><header class="bundle-bar"><nav aria-label="Bundle">
<a href="index.html">Report</a> · <a href="list.html">Trajectories</a></nav></header>
<main id="main">${body}</main>
${scripts.map((s) => `<script src="${escapeHtml(s)}"></script>`).join("\n")}
</body></html>
`;
}
