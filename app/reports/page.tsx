// Frozen reports: researchers freeze and share by link; reviewers read.
import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/tables/data-table";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { dataFingerprint, listFrozenReports } from "@/lib/data/frozen-reports";
import { formatTime } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";
import { FreezeForm, RevokeForm, ShareForm } from "./report-forms";

export const metadata: Metadata = { title: "Reports" };
export const dynamic = "force-dynamic";

function linkState(l: { expiresAt: Date | null; revokedAt: Date | null }, now: number): string {
  if (l.revokedAt) return `revoked ${formatTime(l.revokedAt)}`;
  if (l.expiresAt && l.expiresAt.getTime() <= now) return `expired ${formatTime(l.expiresAt)}`;
  return l.expiresAt ? `open until ${formatTime(l.expiresAt)}` : "open, no expiry";
}

export default async function ReportsPage() {
  const user = await requirePage("results:read", "/reports");
  const writer = can(user.role, "reports:write");
  const [reports, fingerprint] = await Promise.all([listFrozenReports(user), dataFingerprint()]);
  const now = Date.now();
  return (
    <>
      <h1>Reports</h1>
      <p className="note">
        A frozen report keeps the result tables, the paired changes and the agreement figures as they were, with a
        fingerprint of the trajectories, votes, labels and gold labels they came from, the judges and prompt versions,
        the app&apos;s version and the time. It never changes; its page says when the live figures have moved away. A
        read-only link shows that report and its downloads to anyone who has it, and nothing else.
      </p>
      {writer ? <FreezeForm /> : null}
      {reports.length ? (
        <DataTable
          label="Frozen reports"
          rows={reports}
          rowKey={(r) => r.id}
          columns={[
            {
              key: "report",
              label: "Report",
              rowHeader: true,
              cell: (r) => <Link href={`/reports/${r.id}`}>{shownText(r.name)}</Link>,
            },
            {
              key: "frozen",
              label: "Frozen",
              cell: (r) => `${formatTime(r.createdAt)}${r.createdBy ? ` by ${r.createdBy}` : ""}`,
            },
            {
              key: "live",
              label: "Live figures",
              cell: (r) => (r.fingerprint === fingerprint ? "unchanged" : "moved since"),
            },
            writer && {
              key: "links",
              label: "Read-only links",
              cell: (r) => (
                <>
                  {r.links.map((l) => (
                    <div key={l.id} className="link-row">
                      <code>/r/{l.hint}…</code> {linkState(l, now)}
                      {l.revokedAt ? null : <RevokeForm link={l.id} hint={l.hint} />}
                    </div>
                  ))}
                  <ShareForm report={r.id} name={r.name} />
                </>
              ),
            },
          ]}
        />
      ) : (
        <p className="empty">No report frozen yet.</p>
      )}
    </>
  );
}
