import { reportByToken } from "@/lib/data/report-links";
import { frozenDownload } from "@/lib/web/downloads";

export const dynamic = "force-dynamic";

/** GET /r/TOKEN/download?what=…&format=…: a shared report's figures; a bad, revoked or expired token is 404. */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const report = await reportByToken((await params).token);
  if (!report) return Response.json({ error: "no such report" }, { status: 404 });
  return frozenDownload(report, new URL(request.url).searchParams);
}
