import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { StepList, type StepCitation } from "@/components/timeline/step-list";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { getSteps, getSuspectSteps, getTrajectory } from "@/lib/data/trajectory";
import { pageSteps, STEPS_PER_PAGE } from "@/lib/domain/timeline";

export const metadata: Metadata = { title: "Side by side" };
export const dynamic = "force-dynamic";

const Query = z.object({ a: z.coerce.number().int().positive(), b: z.coerce.number().int().positive(), page: z.coerce.number().int().min(1).catch(1).default(1) });

type Loaded = NonNullable<Awaited<ReturnType<typeof getTrajectory>>>;

async function Side({ t, page }: { t: Loaded; page: number }) {
  const { from, to } = pageSteps(page);
  const [messages, suspects] = await Promise.all([getSteps(t.id, from, to), getSuspectSteps(t.id)]);
  const citations = new Map<number, StepCitation[]>();
  for (const c of t.citations) citations.set(c.step, [...(citations.get(c.step) ?? []), c]);
  return (
    <section aria-label={`Trajectory ${t.id}`}>
      <h2><Link href={`/trajectories/${t.id}`}>{t.model.name} · net {t.network ? "✓" : "×"} · {t.prompt} · run {t.run}</Link></h2>
      <p>resolved {t.resolved === null ? "—" : t.resolved ? "yes" : "no"} · panel <VerdictBadge verdict={t.panelVerdict} /> · {t.stepCount} steps · {suspects.length} suspect</p>
      <StepList trajectoryId={t.id} messages={messages} suspects={new Map(suspects.map((s) => [s.step, s.marks]))} citations={citations} />
    </section>
  );
}

/** Two trajectories (typically of the same task under two conditions), page by page side by side. */
export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = Query.safeParse(Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, [v].flat()[0]])));
  if (!q.success) notFound();
  const { a, b, page } = q.data;
  const first = await getTrajectory(a);
  const second = await getTrajectory(b);
  if (!first || !second) notFound();
  const pages = Math.max(1, Math.ceil(Math.max(first.stepCount, second.stepCount) / STEPS_PER_PAGE));
  const pager = pages > 1 ? (
    <nav aria-label="Step pages" className="pager">
      {page > 1 ? <Link href={`/compare?a=${a}&b=${b}&page=${page - 1}`}>← earlier steps</Link> : <span />}
      <span>page {page} of {pages}</span>
      {page < pages ? <Link href={`/compare?a=${a}&b=${b}&page=${page + 1}`}>later steps →</Link> : <span />}
    </nav>
  ) : null;
  return (
    <>
      <h1>{first.task.key}: side by side</h1>
      {pager}
      <div className="compare">
        <Side t={first} page={page} />
        <Side t={second} page={page} />
      </div>
      {pager}
    </>
  );
}
