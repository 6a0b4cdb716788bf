import { v1Route } from "@/lib/api/v1";
import { queryOf, V1_QUERIES } from "@/lib/api/v1-spec";
import { reportDownload } from "@/lib/web/downloads";

export const dynamic = "force-dynamic";

/** GET /api/v1/results?format=json|csv|latex[&table=NAME]: what `results` prints (JSON unless asked). */
export const GET = v1Route("results:read", async (request) => {
  const q = queryOf(V1_QUERIES.results, request);
  return reportDownload("results", q.format, {}, q.table ?? null);
});
