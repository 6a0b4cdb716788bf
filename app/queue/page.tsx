import type { Metadata } from "next";
import Link from "next/link";
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
        <div className="table-scroll">
          <table aria-label="My studies">
            <thead>
              <tr>
                <th>Study</th>
                <th>Blind</th>
                <th>Progress</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {studies.map((s) => (
                <tr key={s.id}>
                  <td>{shownText(s.name)}</td>
                  <td>{s.blind ? "yes" : "no"}</td>
                  <td>
                    <progress max={s.assigned} value={s.done} aria-label={`${s.name} progress`} /> {s.done} /{" "}
                    {s.assigned}
                  </td>
                  <td>
                    {s.next !== null ? (
                      <Link href={`/queue/${s.id}/${s.next}`}>{s.done ? "Continue" : "Start"} →</Link>
                    ) : (
                      <>
                        done · <Link href={`/queue/${s.id}/0`}>review</Link>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="empty">Nothing is assigned to you yet.</p>
      )}
    </>
  );
}
