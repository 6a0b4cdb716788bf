// One page of steps: reasoning, text, calls and output, with suspect marks and citations.
import type { Citation, StepMessage } from "@/lib/data/trajectory";
import type { EvidenceView } from "@/lib/data/trajectory-evidence";
import type { SuspectMark } from "@/lib/domain/rules";
import { shownText } from "@/lib/domain/text";
import { stepHref } from "@/lib/domain/timeline";
import { type CategoryNames, categoryLabel } from "@/lib/domain/verdicts";
import { EVIDENCE_LABELS } from "./evidence-labels";
import { MarkedText, TerminalText } from "./terminal-text";

export type StepCitation = Citation & { by: string; kind: "judge" | "annotator" };

function Cut({
  trajectoryId,
  seq,
  part,
  call,
  shown,
  length,
}: {
  trajectoryId: number;
  seq: number;
  part: string;
  call?: number;
  shown: string;
  length: number;
}) {
  if (length <= shown.length) return null;
  return (
    <a
      className="show-all"
      href={`/trajectories/${trajectoryId}/text?seq=${seq}&part=${part}${call !== undefined ? `&call=${call}` : ""}`}
      target="_blank"
      rel="noopener"
    >
      show all {length.toLocaleString("en-US")} characters
    </a>
  );
}

function byStep<T extends { step: number }>(items: readonly T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) out.set(item.step, [...(out.get(item.step) ?? []), item]);
  return out;
}

export function StepList({
  trajectoryId,
  messages,
  suspects: suspectSteps,
  citations: allCitations,
  evidence: allEvidence = [],
  anchors = true,
  names,
}: {
  trajectoryId: number;
  names: CategoryNames;
  messages: StepMessage[];
  /** Give each step its id (step-N); off where several lists share a page. */
  anchors?: boolean;
  suspects: ReadonlyArray<{ step: number; marks: SuspectMark[] }>;
  citations: readonly StepCitation[];
  evidence?: readonly EvidenceView[];
}) {
  const suspects = new Map(suspectSteps.map((s) => [s.step, s.marks]));
  const citations = byStep(allCitations);
  const evidence = byStep(allEvidence);
  let lastStep = -1;
  return (
    <ol className="steps">
      {messages.map((m) => {
        const first = m.step !== lastStep;
        lastStep = m.step;
        const marks = first ? (suspects.get(m.step) ?? []) : [];
        const cited = first ? (citations.get(m.step) ?? []) : [];
        const found = first ? (evidence.get(m.step) ?? []) : [];
        const fixLines = m.role === "tool" ? (evidence.get(m.step) ?? []).flatMap((e) => e.lines) : [];
        return (
          <StepItem
            key={m.seq}
            trajectoryId={trajectoryId}
            m={m}
            first={first}
            anchors={anchors}
            notes={{ marks, found, cited, names }}
            fixLines={fixLines}
          />
        );
      })}
    </ol>
  );
}

type Notes = {
  marks: SuspectMark[];
  found: readonly EvidenceView[];
  cited: readonly StepCitation[];
  names: CategoryNames;
};

/** One message of a step (the step's first carries its anchor and what is said of the step). */
function StepItem({
  trajectoryId,
  m,
  first,
  anchors,
  notes,
  fixLines,
}: {
  trajectoryId: number;
  m: StepMessage;
  first: boolean;
  anchors: boolean;
  notes: Notes;
  fixLines: EvidenceView["lines"];
}) {
  const at = { trajectoryId, seq: m.seq };
  return (
    <li
      id={first && anchors ? `step-${m.step}` : undefined}
      tabIndex={first && anchors ? -1 : undefined}
      className={`msg msg-${m.role}${notes.marks.length || notes.found.length ? " suspect" : ""}${
        notes.cited.length ? " cited" : ""
      }`}
      data-step={m.step}
    >
      <div className="msg-head">
        {first && m.step > 0 ? (
          <a href={anchors ? `#step-${m.step}` : stepHref(trajectoryId, m.step)} className="step-link">
            step {m.step}
          </a>
        ) : (
          <span>{m.step === 0 ? "task prompt" : `step ${m.step}`}</span>
        )}
        {" · "}
        {m.role}
        {m.exitCode !== null ? ` · exit ${m.exitCode}` : ""}
      </div>
      <StepNotes step={m.step} {...notes} />
      {m.reasoning ? (
        <>
          <TerminalText className="reasoning" text={m.reasoning} />
          <Cut {...at} part="reasoning" shown={m.reasoning} length={m.reasoningLength} />
        </>
      ) : null}
      {m.content ? (
        <>
          <MarkedText text={m.content} marks={fixLines} />
          <Cut {...at} part="content" shown={m.content} length={m.contentLength} />
        </>
      ) : null}
      {m.calls.map((c) => (
        <div key={c.seq} className="call">
          <div className="tool">{shownText(c.name)}</div>
          <TerminalText className="command" text={c.input} />
          <Cut {...at} part="input" call={c.seq} shown={c.input} length={c.inputLength} />
        </div>
      ))}
    </li>
  );
}

/** What is said of a step: the suspect rules it matches, the evidence found in it, who cites it. */
function StepNotes({ step, marks, found, cited, names }: Notes & { step: number }) {
  return (
    <>
      {marks.length ? (
        <ul className="marks" aria-label={`Suspect marks of step ${step}`}>
          {marks.map((k) => (
            <li key={k.rule}>
              <strong>{categoryLabel(k.category, names)}</strong> · {k.rule}: {k.why}
            </li>
          ))}
        </ul>
      ) : null}
      {found.length ? (
        <ul className="marks evidence-marks" aria-label={`Evidence of step ${step}`}>
          {found.map((e, i) => (
            <li key={i}>
              <strong>{EVIDENCE_LABELS[e.kind]}</strong>
              {e.category ? ` (${categoryLabel(e.category, names)})` : ""}: {e.detail}
            </li>
          ))}
        </ul>
      ) : null}
      {cited.length ? (
        <ul className="citations" aria-label={`Citations of step ${step}`}>
          {cited.map((c, i) => (
            <li key={i}>
              cited by {c.kind} <strong>{c.by}</strong>
              {c.category ? ` (${categoryLabel(c.category, names)})` : ""}
              {c.note ? `: ${c.note}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
