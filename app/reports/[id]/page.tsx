import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { FrozenReport } from "@/components/reports/frozen-report";
import { requirePage } from "@/lib/auth/session";
import { getFrozenReport, hasMoved } from "@/lib/data/frozen-reports";
import { IdParam } from "@/lib/domain/params";

export const metadata: Metadata = { title: "Report" };
export const dynamic = "force-dynamic";

export default async function FrozenReportPage({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const user = await requirePage("results:read", `/reports/${encodeURIComponent(raw)}`);
  const id = IdParam.safeParse(raw);
  const report = id.success ? await getFrozenReport(user, id.data) : null;
  if (!report) notFound();
  return (
    <>
      <p className="note">
        <Link href="/reports">Reports</Link> · figures link to the live trajectory lists, which may hold other
        trajectories now
      </p>
      <FrozenReport
        report={report}
        linked
        downloads={`/reports/${report.id}/download`}
        bundle={`/reports/${report.id}/bundle`}
        moved={await hasMoved(report)}
      />
    </>
  );
}
