import { v1Route } from "@/lib/api/v1";
import { withheldIds } from "@/lib/data/blind-elsewhere";
import { IdParam } from "@/lib/domain/params";
import { AppError } from "@/lib/errors";
import { trajectoryWithVerdicts } from "@/lib/work/export";

export const dynamic = "force-dynamic";

/** GET /api/v1/trajectories/{id}: as `export` writes it, with votes, labels, gold and evidence; 404 if withheld. */
export const GET = v1Route<{ params: Promise<{ id: string }> }>("trajectories:read", async (_request, actor, ctx) => {
  const id = IdParam.safeParse((await ctx.params).id);
  const missing = new AppError("NOT_FOUND", "no such trajectory", "id");
  if (!id.success) throw missing;
  if ((await withheldIds(actor)).includes(id.data)) throw missing;
  const found = await trajectoryWithVerdicts(id.data);
  if (!found) throw missing;
  return Response.json(found);
});
