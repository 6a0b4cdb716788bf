import { getFrozenReport } from "@/lib/data/frozen-reports";
import { IdParam } from "@/lib/domain/params";
import { bundleDownload } from "@/lib/web/bundle-download";
import { requireRequest } from "@/lib/web/responses";

export const dynamic = "force-dynamic";

/** GET /reports/ID/bundle[?trajectories=counted|flagged|none]: the report and its trajectories as a .zip folder. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await requireRequest(request, "results:read");
  if (user instanceof Response) return user;
  const id = IdParam.safeParse((await params).id);
  const report = id.success ? await getFrozenReport(user, id.data) : null;
  if (!report) return Response.json({ error: "no such report" }, { status: 404 });
  return bundleDownload(report, new URL(request.url).searchParams);
}
