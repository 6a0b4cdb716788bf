import { v1Route } from "@/lib/api/v1";
import { evidenceText } from "@/lib/data/evidence-report";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** GET /api/v1/evidence?format=json|csv: what `evidence` prints (JSON unless asked). */
export const GET = v1Route("results:read", async (request) => {
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "csv") throw new AppError("BAD_INPUT", "format is one of json, csv", "format");
  return new Response(await evidenceText(format), {
    headers: {
      "content-type": `${format === "json" ? "application/json" : "text/csv"}; charset=utf-8`,
      "cache-control": "no-store",
    },
  });
});
