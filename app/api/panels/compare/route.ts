import { z } from "zod";
import { tableCsv } from "@/lib/domain/figure-table";
import { panelComparisonJson, panelComparisonTable } from "@/lib/domain/panel-compare-table";
import { PanelNameParam } from "@/lib/domain/params";
import { AppError } from "@/lib/errors";
import { requireRequest } from "@/lib/web/responses";
import { comparisonNow } from "@/lib/work/reports/cache";

export const dynamic = "force-dynamic";

const Params = z.object({
  panel: PanelNameParam,
  with: PanelNameParam.optional(),
  format: z.enum(["csv", "json"]).default("csv"),
});

/** GET /api/panels/compare?panel=NAME[&with=NAME]&format=csv|json: as `panel compare` prints it. */
export async function GET(request: Request) {
  const user = await requireRequest(request, "results:read");
  if (user instanceof Response) return user;
  const params = new URL(request.url).searchParams;
  const parsed = Params.safeParse({
    panel: params.get("panel") ?? undefined,
    with: params.get("with") ?? undefined,
    format: params.get("format") ?? undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return Response.json({ error: `${issue.path.join(".")}: ${issue.message}` }, { status: 400 });
  }
  const { panel, with: withName, format } = parsed.data;
  try {
    const view = await comparisonNow(panel, withName);
    const names = { panel: view.candidate.name, with: view.against.name };
    const body =
      format === "csv"
        ? tableCsv(panelComparisonTable(view.comparison, names))
        : `${JSON.stringify(panelComparisonJson(view), null, 2)}\n`;
    return new Response(body, {
      headers: {
        "content-type": `${format === "csv" ? "text/csv" : "application/json"}; charset=utf-8`,
        "content-disposition": `attachment; filename="shortcut-audit-panels.${format}"`,
        "cache-control": "no-store",
      },
    });
  } catch (e) {
    if (e instanceof AppError) return Response.json({ error: e.message }, { status: e.status });
    throw e;
  }
}
