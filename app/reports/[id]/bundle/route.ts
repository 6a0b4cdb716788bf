import { bundleDownload } from "@/lib/web/bundle-download";
import { requestedReport } from "@/lib/web/downloads";

export const dynamic = "force-dynamic";

/** GET /reports/ID/bundle[?trajectories=counted|flagged|none]: the report and its trajectories as a .zip folder. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const report = await requestedReport(request, (await params).id);
  if (report instanceof Response) return report;
  return bundleDownload(report, new URL(request.url).searchParams);
}
