// One review item: the trajectory, every annotator's label, the judges and the gold history beside the form.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { VerdictForm } from "@/components/forms/verdict-form";
import { RaterTable } from "@/components/tables/rater-table";
import { ItemTimeline } from "@/components/timeline/item-timeline";
import { JudgePanel } from "@/components/timeline/judge-panel";
import type { StepCitation } from "@/components/timeline/step-list";
import { EvidenceIndex } from "@/components/timeline/task-panel";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { Withheld } from "@/components/ui/withheld";
import { requireItemPage } from "@/lib/auth/session";
import { withheldFrom } from "@/lib/data/blind-elsewhere";
import { categoryNames, namedCategories } from "@/lib/data/categories";
import { reviewItem, reviewQueue } from "@/lib/data/review";
import { getTrajectory, stepPage } from "@/lib/data/trajectory";
import { getTaskEvidence } from "@/lib/data/trajectory-evidence";
import { formatTime } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";
import { saveGoldLabel } from "../../actions";

export const metadata: Metadata = { title: "Review" };
export const dynamic = "force-dynamic";

export default async function ReviewItemPage({
  params,
  searchParams,
}: {
  params: Promise<{ studyId: string; trajectoryId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await params;
  const {
    user: actor,
    ids: [studyId, trajectoryId],
  } = await requireItemPage("gold:write", "/review", [raw.studyId, raw.trajectoryId]);
  const pending = await withheldFrom(actor, [trajectoryId]);
  if (pending) return <Withheld pending={pending} />;
  const item = await reviewItem(actor, studyId, trajectoryId);
  if (!item) notFound();
  const t = item.trajectory;
  const base = `/review/${studyId}/${t.id}`;
  const [queue, steps, judged, evidence] = await Promise.all([
    reviewQueue(actor, studyId),
    stepPage(t, (await searchParams).page),
    getTrajectory(t.id),
    getTaskEvidence(t.id, t.task.key),
  ]);
  const place = queue.findIndex((i) => i.trajectoryId === t.id);
  const href = (i: number) => (queue[i] ? `/review/${studyId}/${queue[i]!.trajectoryId}` : null);
  const listHref = `/review?study=${encodeURIComponent(item.study.name)}`;
  const citations: StepCitation[] = [
    ...item.labels.flatMap((l) =>
      (Array.isArray(l.evidence) ? (l.evidence as Array<Omit<StepCitation, "by" | "kind">>) : []).map((e) => ({
        ...e,
        by: l.annotator,
        kind: "annotator" as const,
      })),
    ),
    ...(judged?.citations.filter((c) => c.kind === "judge") ?? []),
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
        href: listHref,
        label: "Review",
        text: `${item.study.name} · ${place >= 0 ? `${place + 1} of ${queue.length} to review` : "no disagreement"}`,
      }}
      asideLabel="Adjudication"
      aside={
        <>
          <VerdictForm
            categories={await namedCategories(item.study.categories)}
            key={`${t.id}-${item.gold?.updatedAt ?? "new"}`}
            title="Gold label"
            save={saveGoldLabel.bind(null, studyId, t.id)}
            stepCount={t.stepCount}
            label={item.gold}
            previous={place > 0 ? href(place - 1) : null}
            following={place >= 0 ? href(place + 1) : null}
            finished={listHref}
            done={item.gold !== null}
          />
          <AnnotatorLabels labels={item.labels} categories={item.categories} />
          {judged ? <JudgePanel t={judged} base={base} /> : null}
          <EvidenceIndex trajectoryId={t.id} evidence={evidence} names={names} />
          <GoldHistory history={item.history} />
        </>
      }
    />
  );
}

type Item = NonNullable<Awaited<ReturnType<typeof reviewItem>>>;

function AnnotatorLabels({ labels, categories }: Pick<Item, "labels" | "categories">) {
  return (
    <section aria-labelledby="labels">
      <h2 id="labels">The annotators&apos; labels</h2>
      {labels.length ? (
        <RaterTable
          labelledBy="labels"
          raterHeading="Annotator"
          categories={categories}
          rows={labels.map((l) => ({
            key: l.annotator,
            rater: (
              <>
                {shownText(l.annotator)}
                {l.revisedAfterUnblinding ? <div className="asked">revised after unblinding</div> : null}
                {l.note ? <div className="asked">“{l.note}”</div> : null}
              </>
            ),
            verdicts: l.verdicts,
            overall: l.overall,
          }))}
        />
      ) : (
        <p className="empty">No label in this study.</p>
      )}
    </section>
  );
}

function GoldHistory({ history }: { history: Item["history"] }) {
  if (!history.length) return null;
  return (
    <section aria-labelledby="gold-history">
      <h2 id="gold-history">History of the gold label</h2>
      <ol className="history">
        {history.map((g, i) => (
          <li key={i}>
            {formatTime(g.createdAt)} by {g.adjudicator}: <VerdictBadge verdict={g.overall} />
            {i === 0 ? " (in force)" : ""}
            {g.note ? ` “${g.note.slice(0, 200)}”` : ""}
          </li>
        ))}
      </ol>
    </section>
  );
}
