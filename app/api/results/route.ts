import { reportResponse } from "@/lib/web/downloads";
import { requireRequest } from "@/lib/web/responses";

export const dynamic = "force-dynamic";

/** GET /api/results?format=csv|json|latex[&table=NAME]: the result table, or the table named, as a download. */
export async function GET(request: Request) {
  const user = await requireRequest(request, "results:read");
  if (user instanceof Response) return user;
  const params = new URL(request.url).searchParams;
  return reportResponse("results", params.get("format"), {}, params.get("table"));
}
