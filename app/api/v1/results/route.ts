import { v1Route } from "@/lib/api/v1";
import { reportDownload } from "@/lib/data/reports";

export const dynamic = "force-dynamic";

/** GET /api/v1/results?format=json|csv|latex[&table=NAME]: what `results` prints (JSON unless asked). */
export const GET = v1Route("results:read", async (request) => {
  const params = new URL(request.url).searchParams;
  return reportDownload("results", params.get("format") ?? "json", {}, params.get("table"));
});
