import { v1Route } from "@/lib/api/v1";
import { queryOf, V1_QUERIES } from "@/lib/api/v1-spec";
import { evidenceText } from "@/lib/work/evidence-report";

export const dynamic = "force-dynamic";

/** How long the route waits for the rules' scan to read what was imported (the items' categories). */
const SCAN_WAIT_MS = 30_000;

/** GET /api/v1/evidence?format=json|csv: what `evidence` prints (JSON unless asked). */
export const GET = v1Route("results:read", async (request) => {
  const { format } = queryOf(V1_QUERIES.evidence, request);
  return new Response(await evidenceText(format, SCAN_WAIT_MS), {
    headers: {
      "content-type": `${format === "json" ? "application/json" : "text/csv"}; charset=utf-8`,
      "cache-control": "no-store",
    },
  });
});
