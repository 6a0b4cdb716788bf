import { reportResponse } from "@/lib/data/reports";

export const dynamic = "force-dynamic";

/** GET /api/agreement?format=csv|json|latex: the agreement figures as a download. */
export async function GET(request: Request) {
  return reportResponse("agreement", new URL(request.url).searchParams.get("format"));
}
