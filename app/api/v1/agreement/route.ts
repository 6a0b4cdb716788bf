import { v1Route } from "@/lib/api/v1";
import { scopeOf } from "@/lib/data/agreement";
import { reportDownload } from "@/lib/data/reports";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** GET /api/v1/agreement?format=json|csv|latex[&study=NAME]: what `agreement` prints (JSON unless asked). */
export const GET = v1Route("results:read", async (request) => {
  const params = new URL(request.url).searchParams;
  const study = params.get("study");
  if (study !== null && study.length > 200) throw new AppError("BAD_INPUT", "study: at most 200 characters", "study");
  const scope = await scopeOf(study, false);
  if (!scope) throw new AppError("NOT_FOUND", `no study named ${JSON.stringify(study)}`, "study");
  return reportDownload("agreement", params.get("format") ?? "json", scope);
});
