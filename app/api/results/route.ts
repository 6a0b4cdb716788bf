import { reportResponse } from "@/lib/data/reports";
import { requireRequest } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** GET /api/results?format=csv|json|latex: the result table as a download. */
export async function GET(request: Request) {
  const user = await requireRequest(request, "results:read");
  if (user instanceof Response) return user;
  return reportResponse("results", new URL(request.url).searchParams.get("format"));
}
