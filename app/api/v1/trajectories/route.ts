import { v1Route } from "@/lib/api/v1";
import { can } from "@/lib/auth/permissions";
import { withheldIds } from "@/lib/data/blind-elsewhere";
import { trajectoryPage } from "@/lib/data/trajectories";
import { IndexParam } from "@/lib/domain/params";
import { readTrajectoryFilter, triedRule } from "@/lib/domain/trajectory-filter";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Rows a page holds unless `limit` says fewer (at most 500). */
const LIMIT = 100;

/**
 * GET /api/v1/trajectories?[the list's filters][&after=ID][&limit=N]: a page of the list, by id, as
 * JSON {items, next}; `next` is the `after` of the following page (null: the last). Trajectories
 * awaiting the person's own blind label are left out, as on the list page.
 */
export const GET = v1Route("trajectories:read", async (request, actor) => {
  const params = new URL(request.url).searchParams;
  const { filter, invalid } = readTrajectoryFilter(params);
  if (invalid.length) throw new AppError("BAD_INPUT", `bad value for ${invalid.join(", ")}`, invalid[0]);
  if (triedRule(filter) && !can(actor.role, "rules:write"))
    throw new AppError("FORBIDDEN", "a rule being tried (tryOn, tryPattern) is for those who write rules");
  const after = IndexParam.safeParse(params.get("after") ?? "0");
  if (!after.success) throw new AppError("BAD_INPUT", "after is a trajectory id (the `next` of a page)", "after");
  const limit = IndexParam.safeParse(params.get("limit") ?? String(LIMIT));
  if (!limit.success || limit.data < 1 || limit.data > 500)
    throw new AppError("BAD_INPUT", "limit is a whole number from 1 to 500", "limit");
  return Response.json(await trajectoryPage(filter, after.data, limit.data, await withheldIds(actor)));
});
