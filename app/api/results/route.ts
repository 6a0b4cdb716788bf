import { reportResponse } from "@/lib/data/reports";

export const dynamic = "force-dynamic";

/** GET /api/results?format=csv|json|latex: the result table as a download. */
export async function GET(request: Request) {
  return reportResponse("results", new URL(request.url).searchParams.get("format"));
}
