import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { VerdictForm } from "@/components/forms/verdict-form";
import { ItemTimeline } from "@/components/timeline/item-timeline";
import { JudgePanel } from "@/components/timeline/judge-panel";
import type { StepCitation } from "@/components/timeline/step-list";
import { SuspectIndex } from "@/components/timeline/trajectory-context";
import { requireItemPage } from "@/lib/auth/session";
import { categoryNames, namedCategories } from "@/lib/data/categories";
import { queueItem } from "@/lib/data/queue";
import { nextPosition } from "@/lib/data/studies";
import { stepPage } from "@/lib/data/trajectory";
import { formatTime } from "@/lib/domain/format";
import { saveLabel } from "../../actions";

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
  const {
    user,
    ids: [studyId, position],
  } = await requireItemPage("labels:write", "/queue", [raw.studyId, raw.position]);
  const item = await queueItem(user, studyId, position);
  if (!item) {
    // Not one of this annotator's items: their next one, or their queue.
    const next = await nextPosition(user, studyId);
    redirect(next === null ? "/queue" : `/queue/${studyId}/${next}`);
  }
  const t = item.trajectory;
  const base = `/queue/${item.study.id}/${item.position}`;
  const steps = await stepPage(t, (await searchParams).page);
  const suspects = steps.suspects;
  // Citations: this annotator's own, and the judges' once they are shown.
  const citations: StepCitation[] = [
    ...(item.label?.evidence ?? []).map((e) => ({ ...e, by: user.handle, kind: "annotator" as const })),
    ...(item.judges?.citations.filter((c) => c.kind === "judge") ?? []),
  ];
  const names = await categoryNames();
  return (
    <ItemTimeline
      names={names}
      t={t}
      base={base}
      steps={steps}
      citations={citations}
      where={{
        href: "/queue",
        label: "My queue",
        text: `${item.study.name} · item ${item.index + 1} of ${item.total}${item.study.blind ? " · blind study" : ""}`,
      }}
      asideLabel="Label"
      aside={
        <>
          <VerdictForm
            categories={await namedCategories(item.study.categories)}
            key={`${item.study.id}-${item.position}-${item.label?.updatedAt ?? "new"}`}
            title="Your label"
            save={saveLabel.bind(null, item.study.id, t.id, item.position)}
            stepCount={t.stepCount}
            label={item.label}
            previous={item.previous === null ? null : `/queue/${item.study.id}/${item.previous}`}
            following={item.following === null ? null : `/queue/${item.study.id}/${item.following}`}
            finished="/queue"
            done={item.label !== null}
          />
          {item.judges ? (
            <JudgePanel t={item.judges} base={base} />
          ) : (
            <p className="note">
              Blind study: the judges&apos; verdicts appear here once you have labelled this trajectory. The suspect
              marks below come from the study&apos;s rules, not from the judges: they point at steps and decide nothing.
            </p>
          )}
          <SuspectIndex trajectoryId={base} suspects={suspects} names={names} />
          <LabelHistory revisions={item.revisions} revisedAfterUnblinding={item.revisedAfterUnblinding} />
        </>
      }
    />
  );
}

type Item = NonNullable<Awaited<ReturnType<typeof queueItem>>>;

function LabelHistory({ revisions, revisedAfterUnblinding }: Pick<Item, "revisions" | "revisedAfterUnblinding">) {
  if (!revisions.length) return null;
  return (
    <section aria-labelledby="history">
      <h2 id="history">History of your label</h2>
      {revisedAfterUnblinding ? (
        <p className="warn">
          Revised after unblinding: changed once the judges were shown. Agreement can count the form you first gave
          instead.
        </p>
      ) : null}
      <ol className="history">
        {revisions.map((r, i) => (
          <li key={i}>
            {formatTime(r.at, true)} by {r.editor ?? "an import"}:{" "}
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
