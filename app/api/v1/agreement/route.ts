import { v1Route } from "@/lib/api/v1";
import { queryOf, V1_QUERIES } from "@/lib/api/v1-spec";
import { scopeOf } from "@/lib/data/agreement";
import { AppError } from "@/lib/errors";
import { reportDownload } from "@/lib/web/downloads";

export const dynamic = "force-dynamic";

/** GET /api/v1/agreement?format=json|csv|latex[&study=NAME][&table=monitors]: what `agreement` prints. */
export const GET = v1Route("results:read", async (request) => {
  const q = queryOf(V1_QUERIES.agreement, request);
  const scope = await scopeOf(q.study ?? null, false);
  if (!scope) throw new AppError("NOT_FOUND", `no study named ${JSON.stringify(q.study)}`, "study");
  return reportDownload("agreement", q.format, scope, q.table ?? null);
});
