// One queue item's timeline: its place, task, patch and steps, with what the page adds beside them.
import Link from "next/link";
import type { ReactNode } from "react";
import { PatchView } from "@/components/timeline/patch-view";
import { type StepCitation, StepList } from "@/components/timeline/step-list";
import { SuspectNavigator } from "@/components/timeline/suspect-navigator";
import { Pager } from "@/components/ui/pager";
import type { StepPage } from "@/lib/data/trajectory";
import { conditionText } from "@/lib/domain/charts";
import type { CategoryNames } from "@/lib/domain/verdicts";

export type ItemTrajectory = {
  id: number;
  stepCount: number;
  patch: string | null;
  resolved: boolean | null;
  network: boolean;
  prompt: string;
  run: number;
  benchmark: { name: string };
  model: { name: string };
  task: { key: string; repo: string | null; baseCommit: string | null };
};

export function ItemTimeline({
  t,
  base,
  steps,
  citations,
  where,
  aside,
  asideLabel,
  names,
}: {
  t: ItemTrajectory;
  base: string;
  /** The step page the item's page read (lib/data/trajectory.ts, stepPage). */
  steps: StepPage;
  citations: StepCitation[];
  where: { href: string; label: string; text: string };
  aside: ReactNode;
  asideLabel: string;
  names: CategoryNames;
}) {
  const { page, pages, from, to, messages, suspects } = steps;
  return (
    <>
      <SuspectNavigator trajectoryId={base} steps={suspects.map((s) => s.step)} page={page} />
      <p className="note">
        <Link href={where.href}>{where.label}</Link> · {where.text} · trajectory #{t.id}
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
            <StepList trajectoryId={t.id} messages={messages} suspects={suspects} citations={citations} names={names} />
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
        <aside className="timeline-aside" aria-label={asideLabel}>
          {aside}
        </aside>
      </div>
    </>
  );
}
