// A bundle's pages and assets: the report written whole as HTML, the list and the timeline drawn by the viewer.
import fs from "node:fs";
import path from "node:path";
import type { FrozenReportView } from "@/lib/data/frozen-reports";
import { escapeHtml, type LinkTarget, page, sectionsHtml } from "@/lib/domain/bundle-html";
import { formatTime } from "@/lib/domain/format";
import { judgesText, panelText, type ReportSection } from "@/lib/domain/report-sections";

/** A figure's trajectories by their numbers: how many its list holds, the figure's own count, those here. */
export type BundleSet = { all: number; counted: number | null; here: number[] };

/** The folder's assets, read from the checkout (paths written out, so a build traces these files only). */
const assets = () => ({
  css: fs.readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8"),
  bundleCss: fs.readFileSync(path.join(process.cwd(), "bundle", "bundle.css"), "utf8"),
  viewer: fs.readFileSync(path.join(process.cwd(), "bundle", "viewer.js"), "utf8"),
});

function reportBody(report: FrozenReportView, sections: readonly ReportSection[], target: LinkTarget, held: number) {
  const contents = [
    ...sections.map((s) => `<a href="#${escapeHtml(s.id)}">${escapeHtml(s.heading)}</a>`),
    `<a href="list.html">Trajectories</a>`,
  ];
  return `<h1>Report: ${escapeHtml(report.name)}</h1>
<p>Frozen ${escapeHtml(formatTime(report.createdAt))} · Shortcut Audit ${escapeHtml(report.appVersion)}
· data fingerprint <code class="fingerprint">${escapeHtml(report.fingerprint)}</code></p>
<p class="note">Judges: ${escapeHtml(judgesText(report.judges))}. ${escapeHtml(panelText(report.figures.panel))}
These figures were stored when the report was frozen; the data still gave this fingerprint when the folder was
written, so each count opens the trajectories it counted. The folder holds ${held} trajectories.</p>
<nav aria-label="Contents" class="contents-bar">${contents.join("")}</nav>
<ul class="download-list" aria-label="Downloads"><li>The figures as data: <a href="report.json">report.json</a>
(the results and agreement JSON)</li></ul>
${sectionsHtml(sections, target)}`;
}

const LIST_BODY = `<h1>Trajectories</h1>
<p class="note" id="list-status" role="status">Loading the list…</p>
<div id="list-root"></div>
<noscript><p class="warn">The list and the trajectories need JavaScript; the report's tables do not.</p></noscript>`;

const TRAJECTORY_BODY = `<div id="trajectory-root"><p class="note" role="status">Loading the trajectory…</p></div>
<noscript><p class="warn">A trajectory needs JavaScript to be read from its compressed file.</p></noscript>`;

/** Every page and asset of the bundle, as [file, text]. */
export function bundlePages(
  report: FrozenReportView,
  sections: readonly ReportSection[],
  target: LinkTarget,
  held: number,
  names: boolean,
): Array<[string, string]> {
  const title = `Report: ${report.name}`;
  const a = assets();
  return [
    ["index.html", page(title, reportBody(report, sections, target, held))],
    ["list.html", page(`Trajectories · ${title}`, LIST_BODY, ["assets/viewer.js", "data/sets.js", "data/list.js"])],
    ["trajectory.html", page(`Trajectory · ${title}`, TRAJECTORY_BODY, ["assets/viewer.js", "assets/open.js"])],
    ["assets/app.css", a.css],
    ["assets/bundle.css", a.bundleCss],
    ["assets/viewer.js", a.viewer],
    ["assets/open.js", "SA_BUNDLE.open();\n"],
    [
      "README.txt",
      `${title}\n\nOpen index.html in a browser: it needs no server and sends no request outside this folder.\n` +
        `report.json holds the figures as data. People are ${names ? "named" : "numbered (annotator 1, 2 …)"}.\n`,
    ],
  ];
}
