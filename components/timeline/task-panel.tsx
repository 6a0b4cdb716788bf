// The task's ground truth beside a timeline: issue, reference and test patches, the final patch, the evidence.
import Link from "next/link";
import type { getTaskEvidence } from "@/lib/data/trajectory-evidence";
import { stepHref } from "@/lib/domain/timeline";
import { type CategoryNames, categoryLabel } from "@/lib/domain/verdicts";
import { EVIDENCE_LABELS } from "./evidence-labels";
import { PatchView } from "./patch-view";

type TaskEvidence = Awaited<ReturnType<typeof getTaskEvidence>>;

export function TaskPanel({ evidence, patch }: { evidence: TaskEvidence; patch: string | null }) {
  const r = evidence.record;
  if (!r) return null;
  return (
    <section aria-labelledby="task-record" className="task-record">
      <h2 id="task-record">The task&apos;s ground truth</h2>
      <p className="note">
        Issue filed {r.createdAt ? r.createdAt.toISOString().slice(0, 10) : "(no date)"}. Final patch&apos;s similarity
        to the reference: {evidence.similarity === null ? "— (no final patch)" : evidence.similarity.toFixed(2)}.
      </p>
      {r.problemStatement ? (
        <details>
          <summary>Issue text</summary>
          <pre className="text">{r.problemStatement}</pre>
        </details>
      ) : null}
      <details>
        <summary>Reference patch ({r.patch.split("\n").length} lines)</summary>
        <PatchView patch={r.patch} label="Reference patch" />
      </details>
      {r.testPatch ? (
        <details>
          <summary>Test patch ({r.testPatch.split("\n").length} lines)</summary>
          <PatchView patch={r.testPatch} label="Test patch" />
        </details>
      ) : null}
      {patch ? (
        <details>
          <summary>Final patch beside the reference</summary>
          <div className="patch-pair">
            <div>
              <h3>Agent&apos;s final patch</h3>
              <PatchView patch={patch} label="Agent's final patch" />
            </div>
            <div>
              <h3>Reference</h3>
              <PatchView patch={r.patch} label="Reference patch, beside the agent's" />
            </div>
          </div>
        </details>
      ) : null}
    </section>
  );
}

export function EvidenceIndex({
  trajectoryId,
  evidence,
  names,
}: {
  trajectoryId: number;
  evidence: TaskEvidence;
  names: CategoryNames;
}) {
  if (!evidence.record) return null;
  return (
    <section aria-labelledby="evidence">
      <h2 id="evidence">Evidence</h2>
      {evidence.items.length === 0 ? (
        <p className="empty">Nothing in the outputs shows the fix, a later commit or the upstream change.</p>
      ) : (
        <ul className="evidence-index">
          {evidence.items.map((e, i) => (
            <li key={i}>
              <Link href={stepHref(trajectoryId, e.step)}>step {e.step}</Link>:{" "}
              <strong>{EVIDENCE_LABELS[e.kind]}</strong>
              {e.category ? ` (${categoryLabel(e.category, names)})` : ""}: {e.detail}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
