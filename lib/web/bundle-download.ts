import "server-only";
// A frozen report's bundle as a .zip download: written into a temporary folder, streamed, then removed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import yazl from "yazl";
import { type FrozenReportView, frozenSlug } from "@/lib/data/frozen-reports";
import { BUNDLE_CHOICES, type BundleChoice } from "@/lib/domain/bundle";
import { AppError } from "@/lib/errors";
import { writeBundle } from "@/lib/work/bundle";

/** One bundle is written at a time in this process (a paper-scale one takes a minute of a core). */
let writing = false;

export async function bundleDownload(report: FrozenReportView, params: URLSearchParams): Promise<Response> {
  const choice = (params.get("trajectories") ?? "counted") as BundleChoice;
  if (!BUNDLE_CHOICES.includes(choice))
    return Response.json({ error: `trajectories is one of ${BUNDLE_CHOICES.join(", ")}` }, { status: 400 });
  if (writing)
    return Response.json(
      { error: "another bundle is being written: try again in a minute" },
      { status: 503, headers: { "retry-after": "60" } },
    );
  writing = true;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sa-bundle-"));
  const dir = path.join(tmp, frozenSlug(report));
  const removed = () => fs.rmSync(tmp, { recursive: true, force: true });
  try {
    await writeBundle(report, dir, { trajectories: choice, names: false });
  } catch (e) {
    removed();
    if (e instanceof AppError) return Response.json({ error: e.message }, { status: e.status });
    throw e;
  } finally {
    writing = false;
  }
  const zip = new yazl.ZipFile();
  for (const file of fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort())
    if (fs.statSync(path.join(dir, file)).isFile())
      zip.addFile(path.join(dir, file), `${frozenSlug(report)}/${file}`, { compress: !file.startsWith("t/") });
  zip.end();
  zip.outputStream.on("end", removed).on("close", removed).on("error", removed);
  return new Response(Readable.toWeb(zip.outputStream as Readable) as ReadableStream, {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="shortcut-audit-${frozenSlug(report)}-bundle${
        choice === "counted" ? "" : `-${choice}`
      }.zip"`,
      "cache-control": "no-store",
    },
  });
}
