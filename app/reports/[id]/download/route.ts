import { frozenDownload, requestedReport } from "@/lib/web/downloads";

export const dynamic = "force-dynamic";

/** GET /reports/ID/download?what=results|agreement&format=csv|json|latex[&table=NAME]: a frozen report's figures. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const report = await requestedReport(request, (await params).id);
  if (report instanceof Response) return report;
  return frozenDownload(report, new URL(request.url).searchParams);
}
