import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/tables/data-table";
import { requirePage } from "@/lib/auth/session";
import { myQueue } from "@/lib/data/studies";
import { shownText } from "@/lib/domain/text";

export const metadata: Metadata = { title: "My queue" };
export const dynamic = "force-dynamic";

export default async function QueuePage() {
  const user = await requirePage("labels:write", "/queue");
  const studies = await myQueue(user);
  return (
    <>
      <h1>My labelling queue</h1>
      {studies.length ? (
        <DataTable
          label="My studies"
          rows={studies}
          rowKey={(s) => s.id}
          columns={[
            { key: "study", label: "Study", cell: (s) => shownText(s.name) },
            { key: "blind", label: "Blind", cell: (s) => (s.blind ? "yes" : "no") },
            {
              key: "progress",
              label: "Progress",
              cell: (s) => (
                <>
                  <progress max={s.assigned} value={s.done} aria-label={`${s.name} progress`} /> {s.done} / {s.assigned}
                </>
              ),
            },
            {
              key: "open",
              label: "Open",
              cell: (s) =>
                s.next !== null ? (
                  <Link href={`/queue/${s.id}/${s.next}`}>{s.done ? "Continue" : "Start"} →</Link>
                ) : (
                  <>
                    done · <Link href={`/queue/${s.id}/0`}>review</Link>
                  </>
                ),
            },
          ]}
        />
      ) : (
        <p className="empty">Nothing is assigned to you yet.</p>
      )}
    </>
  );
}
