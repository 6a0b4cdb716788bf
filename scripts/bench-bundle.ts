// The paper-scale study published as a bundle (issue 66): the time to write it, the folder's size and its
// largest file beside the export's size in the same run, and its pages opened from the file system in
// Chromium. bench.ts calls it on its frozen report.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { readFrozenReport } from "@/lib/data/frozen-reports";
import { writeBundle } from "@/lib/work/bundle";
import { EXPORTS } from "@/lib/work/export";

async function exportBytes(): Promise<number> {
  let bytes = 0;
  for (const source of EXPORTS.all)
    for await (const record of source()) bytes += Buffer.byteLength(`${JSON.stringify(record)}\n`);
  return bytes;
}

/** Milliseconds from asking for `url` until `ready` shows, the median of three. */
async function opened(url: string, ready: string): Promise<number> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await page.goto(url, { waitUntil: "commit" });
      await page.locator(ready).first().waitFor({ state: "visible" });
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[1]!;
  } finally {
    await browser.close();
  }
}

export async function bundleFigures(reportId: number, log: (s: string) => void) {
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const mb = (b: number) => r1(b / 1e6);
  log("export: every record as JSONL (bytes only)");
  const exported = await exportBytes();
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sa-bench-bundle-")), "bundle");
  log("bundle: the frozen report and every trajectory it counts");
  const t0 = performance.now();
  const s = await writeBundle((await readFrozenReport(reportId))!, dir, {
    trajectories: "counted",
    names: false,
    progress: (done, total) => done % 3000 === 0 && log(`bundle: ${done}/${total} trajectories`),
  });
  const seconds = (performance.now() - t0) / 1000;
  const file = (f: string) => `file://${dir}/${f}`;
  const figures = {
    bundle_seconds: r1(seconds),
    bundle_trajectories: s.trajectories,
    bundle_links: s.links,
    bundle_files: s.files,
    bundle_mb: mb(s.bytes),
    bundle_largest_file: s.largest.file,
    bundle_largest_mb: mb(s.largest.bytes),
    export_mb: mb(exported),
    bundle_first_page_ms: r1(await opened(file("index.html"), "table")),
    bundle_list_ms: r1(await opened(file("list.html"), "table.list tbody tr")),
    bundle_trajectory_ms: r1(await opened(file("trajectory.html?n=1"), ".steps .step")),
  };
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  return figures;
}
