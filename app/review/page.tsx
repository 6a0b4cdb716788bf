// The review queue: a study's disagreements, strongest first, each opening on a gold label form.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { StudyChooser } from "@/components/forms/study-chooser";
import { DataTable } from "@/components/tables/data-table";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { WithheldNote } from "@/components/ui/withheld";
import type { Actor } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { scopeOf, studyNames } from "@/lib/data/agreement";
import { pendingBlind } from "@/lib/data/blind-elsewhere";
import { reviewQueue } from "@/lib/data/review";
import { networkWords } from "@/lib/domain/charts";
import { formatCount } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";

export const metadata: Metadata = { title: "Review" };
export const dynamic = "force-dynamic";

const VERDICT_WORDS = { NOT_ATTEMPTED: "not attempted", ATTEMPTED: "attempted", SUCCESSFUL: "successful" } as const;

async function queueOf(actor: Actor, name: string) {
  const scope = await scopeOf(name);
  return scope?.studyId ? { name, studyId: scope.studyId, items: await reviewQueue(actor, scope.studyId) } : null;
}

/** Without a choice: the first study with a trajectory left to adjudicate, else the first study. */
async function firstWithWork(actor: Actor, studies: readonly string[]) {
  let first: Awaited<ReturnType<typeof queueOf>> = null;
  for (const name of studies) {
    const queue = await queueOf(actor, name);
    first ??= queue;
    if (queue?.items.some((i) => !i.adjudicated)) return queue;
  }
  return first;
}

export default async function ReviewPage({ searchParams }: { searchParams: Promise<{ study?: string | string[] }> }) {
  const actor = await requirePage("gold:write", "/review");
  const { study } = await searchParams;
  const studies = await studyNames();
  if (!studies.length)
    return (
      <>
        <h1>Review</h1>
        <p className="empty">No study yet: disagreements to adjudicate appear here once a study is labelled.</p>
      </>
    );
  const chosen =
    typeof study === "string"
      ? study.length <= 200
        ? await queueOf(actor, study)
        : null
      : await firstWithWork(actor, studies);
  if (!chosen) notFound();
  const { name, studyId, items } = chosen;
  const open = items.filter((i) => !i.adjudicated).length;
  return (
    <>
      <h1>Review: {name}</h1>
      <StudyChooser label="Study" studies={studies} chosen={name} />
      <p className="note">
        The study&apos;s trajectories whose annotators disagree with each other (even splits first, then uneven ones)
        or, agreeing, with the panel; within each, those without a gold label first. Opening one shows every label, the
        judges and the evidence, with a form for the gold label; saving moves to the next.
      </p>
      <p role="status">
        {formatCount(items.length)} to review, {formatCount(open)} without a gold label.
      </p>
      <WithheldNote pending={await pendingBlind(actor.id)} />
      {items.length ? (
        <DataTable
          label="Disagreements"
          rows={items}
          rowKey={(i) => i.trajectoryId}
          columns={[
            {
              key: "trajectory",
              label: "Trajectory",
              rowHeader: true,
              cell: (i) => (
                <Link href={`/review/${studyId}/${i.trajectoryId}`}>
                  {shownText(`${i.task} · ${i.model}`)} · network {networkWords(i.network)} · {i.prompt}
                </Link>
              ),
            },
            { key: "kind", label: "Disagreement", cell: (i) => i.kind },
            {
              key: "labels",
              label: "Labels",
              cell: (i) =>
                i.labels.map((l) => (
                  <div key={l.annotator}>
                    {shownText(l.annotator)}: {VERDICT_WORDS[l.overall]}
                  </div>
                )),
            },
            { key: "panel", label: "Panel", cell: (i) => <VerdictBadge verdict={i.panel} /> },
            { key: "gold", label: "Gold", cell: (i) => (i.gold ? <VerdictBadge verdict={i.gold} /> : "—") },
          ]}
        />
      ) : (
        <p className="empty">Nothing to adjudicate in this study: every trajectory&apos;s labels agree.</p>
      )}
    </>
  );
}
