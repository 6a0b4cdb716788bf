import type { Metadata } from "next";
import Link from "next/link";
import { type Column, DataTable } from "@/components/tables/data-table";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { listStudies, type StudySummary } from "@/lib/data/studies";
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
        <DataTable label="Studies" rows={studies} rowKey={(s) => s.id} columns={studyColumns(writer)} />
      ) : (
        <p className="empty">No study yet.</p>
      )}
    </>
  );
}

function studyColumns(writer: boolean): Array<Column<StudySummary> | false> {
  return [
    {
      key: "study",
      label: "Study",
      cell: (s) => {
        const q = encodeURIComponent(s.name);
        return (
          <>
            <Link href={`/trajectories?study=${q}`}>{shownText(s.name)}</Link>
            <small className="sub">
              <Link href={`/agreement?study=${q}`}>agreement</Link> · <Link href={`/review?study=${q}`}>review</Link>
            </small>
          </>
        );
      },
    },
    { key: "seed", label: "Seed", cell: (s) => <code>{s.seed}</code> },
    { key: "items", label: "Items", numeric: true, cell: (s) => s.items },
    { key: "overlap", label: "Per item", numeric: true, cell: (s) => s.overlap },
    {
      key: "blind",
      label: "Blind",
      cell: (s) => (
        <>
          {s.blind ? (s.blindElsewhere ? "yes, and elsewhere" : "yes, in the queue only") : "no"}
          {s.blind && writer ? <BlindElsewhereForm study={s.id} name={s.name} on={s.blindElsewhere} /> : null}
        </>
      ),
    },
    {
      key: "created",
      label: "Created",
      cell: (s) => `${formatTime(s.createdAt)}${s.createdBy ? ` by ${s.createdBy}` : ""}`,
    },
    {
      key: "progress",
      label: "Progress (labelled / assigned)",
      cell: (s) =>
        s.progress.map((p) => (
          <span key={p.handle} className="progress-chip">
            {p.handle} {p.done}/{p.assigned}
          </span>
        )),
    },
  ];
}
