// What a page shows instead of a trajectory its viewer must stay blind to (lib/data/blind-elsewhere.ts).
import Link from "next/link";
import type { PendingBlind } from "@/lib/data/blind-elsewhere";

export function Withheld({ pending }: { pending: PendingBlind }) {
  return (
    <>
      <h1>Withheld until you have labelled it</h1>
      <p>
        Your label on this trajectory is pending in the blind study “{pending.study}”, which keeps its labellers blind
        to the judges everywhere in the app until they have given their label.
      </p>
      <p>
        <Link href={`/queue/${pending.studyId}/${pending.position}`}>Label it in your queue</Link>; it opens here once
        your label is given. A researcher can change the study&apos;s setting on the{" "}
        <Link href="/studies">Studies</Link> page.
      </p>
    </>
  );
}

/** A list's note for the trajectories left out while the viewer's blind labels on them are pending. */
export function WithheldNote({ pending }: { pending: readonly PendingBlind[] }) {
  if (!pending.length) return null;
  const studies = [...new Map(pending.map((p) => [p.studyId, p])).values()];
  return (
    <p className="note">
      {pending.length === 1 ? "The trajectory" : `The ${pending.length} trajectories`} awaiting your label in{" "}
      {studies.map((s, i) => (
        <span key={s.studyId}>
          {i ? ", " : ""}
          <Link href={`/queue/${s.studyId}/${s.position}`}>{s.study}</Link>
        </span>
      ))}{" "}
      (blind there and elsewhere) {pending.length === 1 ? "is" : "are"} not shown to you here or anywhere else until you
      have labelled {pending.length === 1 ? "it" : "them"}.
    </p>
  );
}
