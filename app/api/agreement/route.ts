import { reportResponse } from "@/lib/data/reports";
import { requireRequest } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** GET /api/agreement?format=csv|json|latex: the agreement figures as a download. */
export async function GET(request: Request) {
  const user = await requireRequest(request, "results:read");
  if (user instanceof Response) return user;
  return reportResponse("agreement", new URL(request.url).searchParams.get("format"));
}
