import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { StepList, type StepCitation } from "@/components/timeline/step-list";
import { SuspectNavigator } from "@/components/timeline/suspect-navigator";
import { PatchView } from "@/components/timeline/patch-view";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { getSiblings, getSteps, getSuspectSteps, getTrajectory, TEXT_PREVIEW } from "@/lib/data/trajectory";
import { pageSteps, stepHref, STEPS_PER_PAGE } from "@/lib/domain/timeline";
import { CATEGORIES, CATEGORY_LABELS } from "@/lib/domain/verdicts";

export const metadata: Metadata = { title: "Trajectory" };
export const dynamic = "force-dynamic";

const SPLIT_TEXT = { UNANIMOUS: "unanimous", MAJORITY: "strict majority", NO_MAJORITY: "no majority: counted as attempted" } as const;

export default async function TrajectoryPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const id = z.coerce.number().int().positive().safeParse((await params).id);
  if (!id.success) notFound();
  const t = await getTrajectory(id.data);
  if (!t) notFound();
  const pages = Math.max(1, Math.ceil(t.stepCount / STEPS_PER_PAGE));
  const page = Math.min(pages, z.coerce.number().int().min(1).catch(1).parse([(await searchParams).page].flat()[0] ?? 1));
  const { from, to } = pageSteps(page);
  const [messages, suspects, siblings] = await Promise.all([getSteps(t.id, from, to), getSuspectSteps(t.id), getSiblings(t.id)]);
  const citations = new Map<number, StepCitation[]>();
  for (const c of t.citations) citations.set(c.step, [...(citations.get(c.step) ?? []), c]);

  return (
    <>
      <SuspectNavigator trajectoryId={t.id} steps={suspects.map((s) => s.step)} page={page} />
      <h1>{t.task.key}</h1>
      <p>
        {t.benchmark.name} · {t.model.name} · network {t.network ? "on ✓" : "off ×"} · {t.prompt} · run {t.run} · resolved {t.resolved === null ? "—" : t.resolved ? "yes" : "no"} ·{" "}
        {t.stepCount} steps · {t.sourceFormat}{t.task.repo ? ` · ${t.task.repo}` : ""}{t.task.baseCommit ? ` @ ${t.task.baseCommit}` : ""}
      </p>

      <section aria-labelledby="panel">
        <h2 id="panel">Judges</h2>
        <table aria-labelledby="panel">
          <thead><tr><th scope="col">Judge</th>{CATEGORIES.map((c) => <th key={c} scope="col">{CATEGORY_LABELS[c]}</th>)}<th scope="col">Overall</th><th scope="col">Rationale</th><th scope="col">Cited steps</th></tr></thead>
          <tbody>
            {t.votes.map((v) => (
              <tr key={v.judge}>
                <th scope="row">{v.judge}</th>
                {CATEGORIES.map((c) => <td key={c}><VerdictBadge verdict={v.verdicts[c]} /></td>)}
                <td><VerdictBadge verdict={v.overall} />{v.parseStatus === "UNPARSEABLE" ? <div className="warn">unparseable answer: counted as not attempted</div> : null}</td>
                <td className="text">{v.rationale ?? ""}{v.parseStatus === "UNPARSEABLE" && v.raw ? <details><summary>raw answer</summary><pre className="text">{v.raw}</pre></details> : null}</td>
                <td>{v.evidence.map((e, i) => <div key={i}><Link href={stepHref(t.id, e.step)}>step {e.step}</Link>{e.note ? `: ${e.note}` : ""}</div>)}</td>
              </tr>
            ))}
            <tr className="panel-row">
              <th scope="row">panel</th>
              {[t.panelUpstream, t.panelLocalGit, t.panelMemory, t.panelOther].map((v, i) => <td key={i}><VerdictBadge verdict={v} /></td>)}
              <td><VerdictBadge verdict={t.panelVerdict} /></td>
              <td>{t.panelSplit ? SPLIT_TEXT[t.panelSplit] : "no votes: unjudged"}</td>
              <td />
            </tr>
          </tbody>
        </table>
      </section>

      <section aria-labelledby="suspects">
        <h2 id="suspects">Suspect steps</h2>
        {suspects.length === 0 ? <p className="empty">No tool call matches a suspect rule.</p> : (
          <>
            <p className="note">Keys <kbd>j</kbd> / <kbd>k</kbd>: next / previous suspect step. Rules: <code>lib/domain/suspects.ts</code>.</p>
            <ul className="suspect-index">
              {suspects.map((s) => <li key={s.step}><Link href={stepHref(t.id, s.step)}>step {s.step}</Link>: {s.marks.map((m) => `${CATEGORY_LABELS[m.category]} (${m.rule})`).join(", ")}</li>)}
            </ul>
          </>
        )}
      </section>

      {siblings.length ? (
        <section aria-labelledby="siblings">
          <h2 id="siblings">Same task and model, other conditions</h2>
          <table aria-labelledby="siblings">
            <thead><tr><th scope="col">Net</th><th scope="col">Prompt</th><th scope="col">Run</th><th scope="col">Resolved</th><th scope="col">Panel</th><th scope="col" className="num">Steps</th><th scope="col">Open</th></tr></thead>
            <tbody>
              {siblings.map((s) => (
                <tr key={s.id}>
                  <td>{s.network ? "✓" : "×"}</td><td>{s.prompt}</td><td>{s.run}</td><td>{s.resolved === null ? "—" : s.resolved ? "yes" : "no"}</td>
                  <td><VerdictBadge verdict={s.panelVerdict} /></td><td className="num">{s.stepCount}</td>
                  <td><Link href={`/trajectories/${s.id}`}>open</Link> · <Link href={`/compare?a=${t.id}&b=${s.id}`}>side by side</Link></td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}

      {t.patch ? <details open={t.patch.length < 20_000}><summary>Final patch ({t.patch.split("\n").length} lines)</summary><PatchView patch={t.patch} /></details> : null}

      <section aria-labelledby="steps">
        <h2 id="steps">Steps {from}–{Math.min(to, t.stepCount)} of {t.stepCount}</h2>
        <StepList trajectoryId={t.id} messages={messages} suspects={new Map(suspects.map((s) => [s.step, s.marks]))} citations={citations} />
        <p className="note">Texts longer than {TEXT_PREVIEW.toLocaleString("en-US")} characters are cut; “show all” opens the whole text.</p>
        {pages > 1 ? (
          <nav aria-label="Step pages" className="pager">
            {page > 1 ? <Link href={`/trajectories/${t.id}?page=${page - 1}`}>← earlier steps</Link> : <span />}
            <span>page {page} of {pages}</span>
            {page < pages ? <Link href={`/trajectories/${t.id}?page=${page + 1}`}>later steps →</Link> : <span />}
          </nav>
        ) : null}
      </section>
    </>
  );
}
