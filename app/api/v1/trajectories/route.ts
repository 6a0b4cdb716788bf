import { v1Route } from "@/lib/api/v1";
import { queryOf, TrajectoryPageSchema, V1_QUERIES } from "@/lib/api/v1-spec";
import { can } from "@/lib/auth/permissions";
import { withheldIds } from "@/lib/data/blind-elsewhere";
import { trajectoryPage } from "@/lib/data/trajectories";
import { triedRule } from "@/lib/domain/trajectory-filter";
import { AppError } from "@/lib/errors";
import { caughtUpFor } from "@/lib/work/rule-scan/scan";

export const dynamic = "force-dynamic";

/** GET /api/v1/trajectories?[filters][&after=ID][&limit=N]: {items, next} by id; withheld ones left out. */
export const GET = v1Route("trajectories:read", async (request, actor) => {
  const { after, limit, ...filter } = queryOf(V1_QUERIES.trajectories, request);
  if (triedRule(filter) && !can(actor.role, "rules:write"))
    throw new AppError("FORBIDDEN", "a rule being tried (tryOn, tryPattern) is for those who write rules");
  await caughtUpFor(filter);
  return Response.json(
    TrajectoryPageSchema.parse(await trajectoryPage(filter, after, limit, await withheldIds(actor))),
  );
});
