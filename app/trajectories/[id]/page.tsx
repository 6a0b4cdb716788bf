import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { getSteps, getTrajectory, STEPS_PER_PAGE, TEXT_PREVIEW } from "@/lib/data/trajectory";
import { trajectoriesHref } from "@/lib/domain/trajectory-filter";
import { CATEGORIES, CATEGORY_LABELS } from "@/lib/domain/verdicts";

export const metadata: Metadata = { title: "Trajectory" };
export const dynamic = "force-dynamic";

const SPLIT_TEXT = { UNANIMOUS: "unanimous", MAJORITY: "strict majority", NO_MAJORITY: "no majority: counted as attempted" } as const;

const cut = (shown: string, length: number) => (length > shown.length ? `${shown}\n… (${(length - shown.length).toLocaleString("en-US")} more characters)` : shown);

export default async function TrajectoryPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const id = z.coerce.number().int().positive().safeParse((await params).id);
  if (!id.success) notFound();
  const t = await getTrajectory(id.data);
  if (!t) notFound();
  const page = z.coerce.number().int().min(1).catch(1).parse([(await searchParams).page].flat()[0] ?? 1);
  const from = page === 1 ? 0 : (page - 1) * STEPS_PER_PAGE + 1;
  const to = page * STEPS_PER_PAGE;
  const messages = await getSteps(t.id, from, to);
  const pages = Math.max(1, Math.ceil(t.stepCount / STEPS_PER_PAGE));
  return (
    <>
      <h1>{t.task.key}</h1>
      <p>
        {t.benchmark.name} · {t.model.name} · network {t.network ? "on ✓" : "off ×"} · {t.prompt} · run {t.run} · resolved {t.resolved === null ? "—" : t.resolved ? "yes" : "no"} ·{" "}
        {t.stepCount} steps · {t.sourceFormat}{t.task.repo ? ` · ${t.task.repo}` : ""}{t.task.baseCommit ? ` @ ${t.task.baseCommit}` : ""}
      </p>
      <p><Link href={trajectoriesHref({ task: t.task.key, model: t.model.name })}>Same task and model, other conditions</Link></p>
      <section aria-labelledby="panel">
        <h2 id="panel">Judges</h2>
        <table aria-labelledby="panel">
          <thead><tr><th scope="col">Judge</th>{CATEGORIES.map((c) => <th key={c} scope="col">{CATEGORY_LABELS[c]}</th>)}<th scope="col">Overall</th><th scope="col">Rationale</th></tr></thead>
          <tbody>
            {t.votes.map((v) => (
              <tr key={v.judge}>
                <th scope="row">{v.judge}</th>
                {CATEGORIES.map((c) => <td key={c}><VerdictBadge verdict={v.verdicts[c]} /></td>)}
                <td><VerdictBadge verdict={v.overall} />{v.parseStatus === "UNPARSEABLE" ? " (unparseable answer)" : ""}</td>
                <td className="text">{v.rationale ?? (v.parseStatus === "UNPARSEABLE" ? v.raw : "") ?? ""}</td>
              </tr>
            ))}
            <tr className="panel-row">
              <th scope="row">panel</th>
              {[t.panelUpstream, t.panelLocalGit, t.panelMemory, t.panelOther].map((v, i) => <td key={i}><VerdictBadge verdict={v} /></td>)}
              <td><VerdictBadge verdict={t.panelVerdict} /></td>
              <td>{t.panelSplit ? SPLIT_TEXT[t.panelSplit] : "no votes: unjudged"}</td>
            </tr>
          </tbody>
        </table>
      </section>
      {t.patch ? <details><summary>Final patch</summary><pre className="text">{t.patch}</pre></details> : null}
      <section aria-labelledby="steps">
        <h2 id="steps">Steps {from}–{Math.min(to, t.stepCount)} of {t.stepCount}</h2>
        <ol className="steps">
          {messages.map((m) => (
            <li key={m.seq} id={`step-${m.step}`} className={`msg msg-${m.role}`}>
              <div className="msg-head">step {m.step} · {m.role}{m.exitCode !== null ? ` · exit ${m.exitCode}` : ""}</div>
              {m.reasoning ? <pre className="text reasoning">{cut(m.reasoning, m.reasoningLength)}</pre> : null}
              {m.content ? <pre className="text">{cut(m.content, m.contentLength)}</pre> : null}
              {m.calls.map((c, i) => <pre key={i} className="text call"><span className="tool">{c.name}</span> {cut(c.input, c.inputLength)}</pre>)}
            </li>
          ))}
        </ol>
        <p className="note">Texts longer than {TEXT_PREVIEW.toLocaleString("en-US")} characters are cut here.</p>
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
