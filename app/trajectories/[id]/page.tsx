import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { askJudgesHref } from "@/app/judges/run-fields";
import { JudgePanel } from "@/components/timeline/judge-panel";
import { PatchView } from "@/components/timeline/patch-view";
import { StepList } from "@/components/timeline/step-list";
import { SuspectNavigator } from "@/components/timeline/suspect-navigator";
import { EvidenceIndex, TaskPanel } from "@/components/timeline/task-panel";
import { Siblings, SuspectIndex } from "@/components/timeline/trajectory-context";
import { Pager } from "@/components/ui/pager";
import { Withheld } from "@/components/ui/withheld";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { withheldFrom, withheldIds } from "@/lib/data/blind-elsewhere";
import { categoryNames } from "@/lib/data/categories";
import {
  getSiblings,
  getSteps,
  getSuspectSteps,
  getTaskTrajectoryIds,
  getTrajectory,
  marksLeftOut,
  TEXT_PREVIEW,
} from "@/lib/data/trajectory";
import { getTaskEvidence } from "@/lib/data/trajectory-evidence";
import { conditionText } from "@/lib/domain/charts";
import { firstValue, IdParam, wholeNumber } from "@/lib/domain/params";
import { shownText } from "@/lib/domain/text";
import { pageSteps, STEPS_PER_PAGE } from "@/lib/domain/timeline";

export const metadata: Metadata = { title: "Trajectory" };
export const dynamic = "force-dynamic";

export default async function TrajectoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = (await params).id;
  const user = await requirePage("trajectories:read", `/trajectories/${encodeURIComponent(raw)}`);
  const id = IdParam.safeParse(raw);
  if (!id.success) notFound();
  const pending = await withheldFrom(user, [id.data]);
  if (pending) return <Withheld pending={pending} />;
  const t = await getTrajectory(id.data);
  if (!t) notFound();
  const pages = Math.max(1, Math.ceil(t.stepCount / STEPS_PER_PAGE));
  const page = Math.min(
    pages,
    wholeNumber(1)
      .catch(1)
      .parse(firstValue((await searchParams).page) ?? "1"),
  );
  const { from, to } = pageSteps(page);
  const withheld = await withheldIds(user);
  const names = await categoryNames();
  const [messages, { suspects, leftOut }, siblings, taskTrajectories, evidence] = await Promise.all([
    getSteps(t.id, from, to),
    getSuspectSteps(t.id).then(async (suspects) => ({ suspects, leftOut: await marksLeftOut(t.id) })),
    getSiblings(t.id, withheld),
    getTaskTrajectoryIds(t.id, withheld),
    getTaskEvidence(t.id, t.task.key),
  ]);
  // The keys j / k walk suspect steps and evidence steps alike.
  const marked = [...new Set([...suspects.map((s) => s.step), ...evidence.items.map((e) => e.step)])].sort(
    (a, b) => a - b,
  );
  const ask = can(user.role, "judges:write")
    ? askJudgesHref({
        benchmark: t.benchmark.name,
        model: t.model.name,
        network: t.network,
        prompt: t.prompt,
        task: t.task.key,
        run: t.run,
      })
    : undefined;
  return (
    <>
      <SuspectNavigator trajectoryId={t.id} steps={marked} page={page} />
      <h1>{shownText(t.task.key)}</h1>
      <p>
        {conditionText({ ...t, benchmark: t.benchmark.name, model: t.model.name })} · resolved{" "}
        {t.resolved === null ? "—" : t.resolved ? "yes" : "no"} · {t.stepCount} steps · {t.sourceFormat}
        {t.task.repo ? ` · ${t.task.repo}` : ""}
        {t.task.baseCommit ? ` @ ${t.task.baseCommit}` : ""}
      </p>
      <div className="timeline-layout">
        <div className="timeline-main">
          {t.patch ? (
            <details open={t.patch.length < 20_000}>
              <summary>Final patch ({t.patch.split("\n").length} lines)</summary>
              <PatchView patch={t.patch} />
            </details>
          ) : null}
          <TaskPanel evidence={evidence} patch={t.patch} />
          <section aria-labelledby="steps">
            <h2 id="steps">
              Steps {from}–{Math.min(to, t.stepCount)} of {t.stepCount}
            </h2>
            <StepList
              names={names}
              trajectoryId={t.id}
              messages={messages}
              suspects={suspects}
              citations={t.citations}
              evidence={evidence.items}
            />
            <p className="note">
              Texts longer than {TEXT_PREVIEW.toLocaleString("en-US")} characters are cut; “show all” opens the whole
              text.
            </p>
            <Pager
              label="Step pages"
              page={page}
              pages={pages}
              href={(p) => `/trajectories/${t.id}?page=${p}`}
              previous="← earlier steps"
              next="later steps →"
            />
          </section>
        </div>
        <aside className="timeline-aside" aria-label="Judges and context">
          <JudgePanel t={t} ask={ask} />
          <EvidenceIndex trajectoryId={t.id} evidence={evidence} names={names} />
          <SuspectIndex trajectoryId={t.id} suspects={suspects} leftOut={leftOut} names={names} />
          <Siblings trajectoryId={t.id} siblings={siblings} taskTrajectories={taskTrajectories} />
        </aside>
      </div>
    </>
  );
}
