import { scopeOf } from "@/lib/data/agreement";
import { reportResponse } from "@/lib/web/downloads";
import { requireRequest } from "@/lib/web/responses";

export const dynamic = "force-dynamic";

/** GET /api/agreement?format=csv|json|latex[&study=NAME][&first=1][&table=monitors]: the agreement as a download. */
export async function GET(request: Request) {
  const user = await requireRequest(request, "results:read");
  if (user instanceof Response) return user;
  const params = new URL(request.url).searchParams;
  const study = params.get("study");
  if (study !== null && study.length > 200) return Response.json({ error: "study: too long" }, { status: 400 });
  const scope = await scopeOf(study, params.get("first") === "1");
  if (!scope) return Response.json({ error: `no study named ${JSON.stringify(study)}` }, { status: 404 });
  return reportResponse("agreement", params.get("format"), scope, params.get("table"));
}
