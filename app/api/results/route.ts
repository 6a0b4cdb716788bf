import { RESULT_FORMATS, renderResults, type ResultFormat } from "@/lib/data/results-export";

export const dynamic = "force-dynamic";

/** GET /api/results?format=csv|json|latex: the result table as a download. */
export async function GET(request: Request) {
  const format = new URL(request.url).searchParams.get("format") ?? "csv";
  if (!(format in RESULT_FORMATS)) return Response.json({ error: `format is one of ${Object.keys(RESULT_FORMATS).join(", ")}` }, { status: 400 });
  const f = RESULT_FORMATS[format as ResultFormat];
  return new Response(await renderResults(format as ResultFormat), {
    headers: { "content-type": `${f.type}; charset=utf-8`, "content-disposition": `attachment; filename="shortcut-audit-results.${f.extension}"` },
  });
}
