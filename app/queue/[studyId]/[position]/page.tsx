import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { conditionText } from "@/lib/domain/charts";
import { firstValue, IndexParam, wholeNumber } from "@/lib/domain/params";
import { JudgePanel } from "@/components/timeline/judge-panel";
import { PatchView } from "@/components/timeline/patch-view";
import { StepList, type StepCitation } from "@/components/timeline/step-list";
import { SuspectNavigator } from "@/components/timeline/suspect-navigator";
import { SuspectIndex } from "@/components/timeline/trajectory-context";
import { Pager } from "@/components/ui/pager";
import { requirePage } from "@/lib/auth/session";
import { queueItem } from "@/lib/data/queue";
import { nextPosition } from "@/lib/data/studies";
import { getSteps, getSuspectSteps } from "@/lib/data/trajectory";
import { pageSteps, STEPS_PER_PAGE } from "@/lib/domain/timeline";
import { LabelPanel } from "./label-panel";

export const metadata: Metadata = { title: "Label" };
export const dynamic = "force-dynamic";

export default async function LabelPage({
  params,
  searchParams,
}: {
  params: Promise<{ studyId: string; position: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await params;
  const user = await requirePage(
    "labels:write",
    `/queue/${encodeURIComponent(raw.studyId)}/${encodeURIComponent(raw.position)}`,
  );
  const studyId = IndexParam.safeParse(raw.studyId);
  const position = IndexParam.safeParse(raw.position);
  if (!studyId.success || !position.success) notFound();
  const item = await queueItem(user, studyId.data, position.data);
  if (!item) {
    // Not one of this annotator's items: their next one, or their queue.
    const next = await nextPosition(user, studyId.data);
    redirect(next === null ? "/queue" : `/queue/${studyId.data}/${next}`);
  }
  const t = item.trajectory;
  const base = `/queue/${item.study.id}/${item.position}`;
  const pages = Math.max(1, Math.ceil(t.stepCount / STEPS_PER_PAGE));
  const page = Math.min(
    pages,
    wholeNumber(1)
      .catch(1)
      .parse(firstValue((await searchParams).page) ?? "1"),
  );
  const { from, to } = pageSteps(page);
  const [messages, suspects] = await Promise.all([getSteps(t.id, from, to), getSuspectSteps(t.id)]);
  // Citations: this annotator's own, and the judges' once they are shown.
  const citations: StepCitation[] = [
    ...(item.label?.evidence ?? []).map((e) => ({ ...e, by: user.handle, kind: "annotator" as const })),
    ...(item.judges?.citations.filter((c) => c.kind === "judge") ?? []),
  ];
  return (
    <>
      <SuspectNavigator trajectoryId={base} steps={suspects.map((s) => s.step)} page={page} />
      <p className="note">
        <Link href="/queue">My queue</Link> · {item.study.name} · item {item.index + 1} of {item.total} · trajectory #
        {t.id}
        {item.study.blind ? " · blind study" : ""}
      </p>
      <h1>{t.task.key}</h1>
      <p>
        {conditionText({ ...t, benchmark: t.benchmark.name, model: t.model.name })} · resolved{" "}
        {t.resolved === null ? "—" : t.resolved ? "yes" : "no"} · {t.stepCount} steps
        {t.task.repo ? ` · ${t.task.repo}` : ""}
        {t.task.baseCommit ? ` @ ${t.task.baseCommit}` : ""}
      </p>
      <div className="timeline-layout">
        <div className="timeline-main">
          {t.patch ? (
            <details>
              <summary>Final patch ({t.patch.split("\n").length} lines)</summary>
              <PatchView patch={t.patch} />
            </details>
          ) : null}
          <section aria-labelledby="steps">
            <h2 id="steps">
              Steps {from}–{Math.min(to, t.stepCount)} of {t.stepCount}
            </h2>
            <StepList trajectoryId={t.id} messages={messages} suspects={suspects} citations={citations} />
            <Pager
              label="Step pages"
              page={page}
              pages={pages}
              href={(p) => `${base}?page=${p}`}
              previous="← earlier steps"
              next="later steps →"
            />
          </section>
        </div>
        <aside className="timeline-aside" aria-label="Label">
          <LabelPanel
            key={`${item.study.id}-${item.position}-${item.label?.updatedAt ?? "new"}`}
            studyId={item.study.id}
            trajectoryId={t.id}
            position={item.position}
            stepCount={t.stepCount}
            label={item.label}
            previous={item.previous}
            following={item.following}
            done={item.label !== null}
          />
          {item.judges ? (
            <JudgePanel t={item.judges} base={base} />
          ) : (
            <p className="note">
              Blind study: the judges&apos; verdicts appear here once you have labelled this trajectory.
            </p>
          )}
          <SuspectIndex trajectoryId={base} suspects={suspects} />
          {item.revisions.length ? (
            <section aria-labelledby="history">
              <h2 id="history">History of your label</h2>
              {item.revisedAfterUnblinding ? (
                <p className="warn">
                  Revised after unblinding: changed once the judges were shown. Agreement can count the form you first
                  gave instead.
                </p>
              ) : null}
              <ol className="history">
                {item.revisions.map((r, i) => (
                  <li key={i}>
                    {r.at.toISOString().replace("T", " ").slice(0, 19)} by {r.editor ?? "an import"}:{" "}
                    {r.before ? (
                      <>
                        {describeForm(r.before)} → {describeForm(r.after)}
                      </>
                    ) : (
                      <>first form: {describeForm(r.after)}</>
                    )}
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
        </aside>
      </div>
    </>
  );
}

/** A revision's form in one line: the four verdicts, cited steps, whether a note was given. */
function describeForm(form: unknown): string {
  const f = (form ?? {}) as {
    verdicts?: Record<string, string>;
    evidence?: Array<{ step: number }>;
    note?: string | null;
  };
  const v = f.verdicts
    ? Object.entries(f.verdicts)
        .map(([k, x]) => `${k.toLowerCase()} ${x.toLowerCase().replace("_", " ")}`)
        .join(", ")
    : "—";
  const steps = f.evidence?.length ? `; steps ${f.evidence.map((e) => e.step).join(", ")}` : "";
  return `${v}${steps}${f.note ? `; note “${f.note.slice(0, 80)}”` : ""}`;
}
