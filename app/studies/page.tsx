import type { Metadata } from "next";
import Link from "next/link";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { listStudies } from "@/lib/data/studies";
import { formatTime } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";
import { BlindElsewhereForm } from "./blind-elsewhere-form";

export const metadata: Metadata = { title: "Studies" };
export const dynamic = "force-dynamic";

export default async function StudiesPage() {
  const user = await requirePage("studies:read", "/studies");
  const studies = await listStudies(user);
  const writer = can(user.role, "studies:write");
  return (
    <>
      <h1>Annotation studies</h1>
      {writer ? (
        <p>
          <Link href="/studies/new">New study…</Link>
        </p>
      ) : null}
      <p className="note">
        Blind: annotators see no judge verdict in their queue until they have labelled. “And elsewhere”: while a
        researcher&apos;s label on an item is pending, they cannot open that trajectory anywhere else in the app either.
      </p>
      {studies.length ? (
        <div className="table-scroll">
          <table aria-label="Studies">
            <thead>
              <tr>
                <th>Study</th>
                <th>Seed</th>
                <th className="num">Items</th>
                <th className="num">Per item</th>
                <th>Blind</th>
                <th>Created</th>
                <th>Progress (labelled / assigned)</th>
              </tr>
            </thead>
            <tbody>
              {studies.map((s) => (
                <tr key={s.id}>
                  <td>{shownText(s.name)}</td>
                  <td>
                    <code>{s.seed}</code>
                  </td>
                  <td className="num">{s.items}</td>
                  <td className="num">{s.overlap}</td>
                  <td>
                    {s.blind ? (s.blindElsewhere ? "yes, and elsewhere" : "yes, in the queue only") : "no"}
                    {s.blind && writer ? <BlindElsewhereForm study={s.id} name={s.name} on={s.blindElsewhere} /> : null}
                  </td>
                  <td>
                    {formatTime(s.createdAt)}
                    {s.createdBy ? ` by ${s.createdBy}` : ""}
                  </td>
                  <td>
                    {s.progress.map((p) => (
                      <span key={p.handle} className="progress-chip">
                        {p.handle} {p.done}/{p.assigned}
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="empty">No study yet.</p>
      )}
    </>
  );
}
