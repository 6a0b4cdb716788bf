// Beside the timeline: the suspect-step index and the same task and model under other conditions.
import Link from "next/link";
import { DataTable } from "@/components/tables/data-table";
import { NetworkMark } from "@/components/ui/network-mark";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import type { getSiblings } from "@/lib/data/trajectory";
import type { SuspectMark } from "@/lib/domain/rules";
import { shownText } from "@/lib/domain/text";
import { COMPARE_MAX, compareHref, stepHref } from "@/lib/domain/timeline";
import { type CategoryNames, categoryLabel } from "@/lib/domain/verdicts";

export function SuspectIndex({
  trajectoryId,
  suspects,
  leftOut = [],
  names,
}: {
  trajectoryId: number | string;
  suspects: Array<{ step: number; marks: SuspectMark[] }>;
  names: CategoryNames;
  /** Why marks may be missing: a rule stopped for running past its limit, or these marks cut short. */
  leftOut?: readonly string[];
}) {
  return (
    <section aria-labelledby="suspects">
      <h2 id="suspects">Suspect steps</h2>
      {leftOut.map((l) => (
        <p key={l} className="note" role="note">
          {shownText(l)}
        </p>
      ))}
      {suspects.length === 0 ? (
        <p className="empty">No tool call matches a suspect rule.</p>
      ) : (
        <>
          <p className="note">
            Keys <kbd>j</kbd> / <kbd>k</kbd>: next / previous suspect step. The rules that mark them:{" "}
            <Link href="/rules">Rules</Link>.
          </p>
          <ul className="suspect-index">
            {suspects.map((s) => (
              <li key={s.step}>
                <Link href={stepHref(trajectoryId, s.step)}>step {s.step}</Link>:{" "}
                {s.marks.map((m) => `${categoryLabel(m.category, names)} (${m.rule})`).join(", ")}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function Siblings({
  trajectoryId,
  siblings,
  taskTrajectories,
}: {
  trajectoryId: number;
  siblings: Awaited<ReturnType<typeof getSiblings>>;
  /** Every trajectory of the task, this one among them (all models). */
  taskTrajectories: readonly number[];
}) {
  if (!siblings.length && taskTrajectories.length < 2) return null;
  const across = [trajectoryId, ...taskTrajectories.filter((id) => id !== trajectoryId)];
  return (
    <section aria-labelledby="siblings">
      <h2 id="siblings">Same task and model, other conditions</h2>
      <p>
        Side by side, aligned by step:{" "}
        {siblings.length ? (
          <Link href={compareHref([trajectoryId, ...siblings.map((x) => x.id)])}>
            this model&apos;s {Math.min(COMPARE_MAX, siblings.length + 1)}
          </Link>
        ) : null}
        {siblings.length && across.length > siblings.length + 1 ? " · " : null}
        {across.length > siblings.length + 1 ? (
          <Link href={compareHref(across)}>
            every model&apos;s {Math.min(COMPARE_MAX, across.length)}
            {across.length > COMPARE_MAX ? ` (of ${across.length})` : ""}
          </Link>
        ) : null}
      </p>
      <DataTable
        labelledBy="siblings"
        rows={siblings}
        rowKey={(s) => s.id}
        columns={[
          { key: "net", label: "Net", cell: (s) => <NetworkMark network={s.network} /> },
          { key: "prompt", label: "Prompt", cell: (s) => s.prompt },
          { key: "run", label: "Run", cell: (s) => s.run },
          { key: "resolved", label: "Resolved", cell: (s) => (s.resolved === null ? "—" : s.resolved ? "yes" : "no") },
          { key: "panel", label: "Panel", cell: (s) => <VerdictBadge verdict={s.panelVerdict} /> },
          { key: "steps", label: "Steps", numeric: true, cell: (s) => s.stepCount },
          {
            key: "open",
            label: "Open",
            cell: (s) => (
              <>
                <Link href={`/trajectories/${s.id}`}>open</Link> ·{" "}
                <Link href={`/compare?a=${trajectoryId}&b=${s.id}`}>side by side</Link>
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
