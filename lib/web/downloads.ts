import "server-only";
// Reports as HTTP downloads, live or frozen; a bad format, table or report is a 400 naming it.
import type { AgreementScope } from "@/lib/data/agreement";
import { type FrozenReportView, frozenSlug, getFrozenReport } from "@/lib/data/frozen-reports";
import { IdParam } from "@/lib/domain/params";
import { AppError } from "@/lib/errors";
import {
  frozenFigures,
  REPORT_NAMES,
  type ReportFigures,
  type ReportName,
  reportFile,
} from "@/lib/work/reports/formats";
import { isReportName } from "@/lib/work/reports/frozen";
import { requireRequest } from "./responses";

/** The frozen report a signed-in reader asks for by its route's id, or the answer refusing them (401, 403, 404). */
export async function requestedReport(request: Request, id: string): Promise<FrozenReportView | Response> {
  const user = await requireRequest(request, "results:read");
  if (user instanceof Response) return user;
  const parsed = IdParam.safeParse(id);
  const report = parsed.success ? await getFrozenReport(user, parsed.data) : null;
  return report ?? Response.json({ error: "no such report" }, { status: 404 });
}

/** A report as a download, or the AppError of reportFile (the API's wrapper answers it). */
export async function reportDownload(
  name: ReportName,
  format: string | null,
  scope: AgreementScope = {},
  table: string | null = null,
  figures?: ReportFigures,
  file?: string,
): Promise<Response> {
  const f = await reportFile(name, format, scope, table, figures, file);
  return new Response(f.body, {
    headers: {
      "content-type": f.type,
      "content-disposition": `attachment; filename="${f.filename}"`,
      // A download is a copy of the study at this moment: no cache keeps it for the next reader.
      "cache-control": "no-store",
    },
  });
}

/** reportDownload, with a bad format or table answered as a 400 naming it. */
export async function reportResponse(...args: Parameters<typeof reportDownload>): Promise<Response> {
  try {
    return await reportDownload(...args);
  } catch (e) {
    if (e instanceof AppError) return Response.json({ error: e.message }, { status: e.status });
    throw e;
  }
}

/** A frozen report's download: `what` (results or agreement), `format` and `table` as a reader gave them. */
export function frozenDownload(report: FrozenReportView, params: URLSearchParams): Promise<Response> | Response {
  const what = params.get("what") ?? "results";
  if (!isReportName(what))
    return Response.json({ error: `what is one of ${REPORT_NAMES.join(", ")}` }, { status: 400 });
  return reportResponse(
    what,
    params.get("format"),
    {},
    params.get("table"),
    frozenFigures({ results: report.results, agreement: report.figures.agreement }),
    `shortcut-audit-${frozenSlug(report)}-${what}`,
  );
}
