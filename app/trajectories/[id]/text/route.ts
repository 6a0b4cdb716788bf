import { z } from "zod";
import { isAssigned } from "@/lib/data/studies";
import { getFullText } from "@/lib/data/trajectory";
import { IdParam, IndexParam } from "@/lib/domain/params";
import { requireRequest } from "@/lib/web/responses";

export const dynamic = "force-dynamic";

const Query = z.object({
  seq: IndexParam,
  part: z.enum(["content", "reasoning", "input"]).default("content"),
  call: IndexParam.default(0),
});

/** One message's or tool call's whole text, as plain text (never HTML), however long. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = IdParam.safeParse((await params).id);
  // Readers of trajectories, and annotators for the trajectories of their queue (a text holds no verdict).
  let user = await requireRequest(request, "trajectories:read");
  if (user instanceof Response && user.status === 403 && id.success) {
    const labeller = await requireRequest(request, "labels:write");
    if (!(labeller instanceof Response) && (await isAssigned(labeller.id, id.data))) user = labeller;
  }
  if (user instanceof Response) return user;
  const q = Query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!id.success || !q.success)
    return new Response("bad request: give seq (a message position), part (content, reasoning or input) and call", {
      status: 400,
    });
  const text = await getFullText(id.data, q.data.seq, q.data.part, q.data.call);
  if (text === null) return new Response("no such text", { status: 404 });
  return new Response(text, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      // Agent text may hold secrets: not kept by the browser or any cache between.
      "cache-control": "no-store",
    },
  });
}
