// A shared report, read-only, for anyone holding its link; no session is made.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FrozenReport } from "@/components/reports/frozen-report";
import { reportByToken } from "@/lib/data/report-links";

export const metadata: Metadata = { title: "Shared report", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

export default async function SharedReportPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const report = await reportByToken(token);
  if (!report) notFound();
  return (
    <FrozenReport report={report} linked={false} downloads={`/r/${encodeURIComponent(token)}/download`} moved={null} />
  );
}
