import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { IdParam, wholeNumber } from "@/lib/domain/params";
import { StepList } from "@/components/timeline/step-list";
import { Pager } from "@/components/ui/pager";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { getSteps, getSuspectSteps, getTrajectory } from "@/lib/data/trajectory";
import { pageSteps, STEPS_PER_PAGE } from "@/lib/domain/timeline";
import { requirePage } from "@/lib/auth/session";
import { withheldFrom } from "@/lib/data/blind-elsewhere";
import { Withheld } from "@/components/ui/withheld";
import { networkMark } from "@/lib/domain/charts";

export const metadata: Metadata = { title: "Side by side" };
export const dynamic = "force-dynamic";

const Query = z.object({ a: IdParam, b: IdParam, page: wholeNumber(1).catch(1).default(1) });

type Loaded = NonNullable<Awaited<ReturnType<typeof getTrajectory>>>;

async function Side({ t, page }: { t: Loaded; page: number }) {
  const { from, to } = pageSteps(page);
  const [messages, suspects] = await Promise.all([getSteps(t.id, from, to), getSuspectSteps(t.id)]);
  return (
    <section aria-label={`Trajectory ${t.id}`}>
      <h2>
        <Link href={`/trajectories/${t.id}`}>
          {t.model.name} · net {networkMark(t.network)} · {t.prompt} · run {t.run}
        </Link>
      </h2>
      <p>
        resolved {t.resolved === null ? "—" : t.resolved ? "yes" : "no"} · panel{" "}
        <VerdictBadge verdict={t.panelVerdict} /> · {t.stepCount} steps · {suspects.length} suspect
      </p>
      <StepList trajectoryId={t.id} messages={messages} suspects={suspects} citations={t.citations} />
    </section>
  );
}

/** Two trajectories (typically of the same task under two conditions), page by page side by side. */
export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePage("trajectories:read", "/compare");
  const q = Query.safeParse(Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, [v].flat()[0]])));
  if (!q.success) notFound();
  const { a, b } = q.data;
  const pending = await withheldFrom(user, [a, b]);
  if (pending) return <Withheld pending={pending} />;
  const first = await getTrajectory(a);
  const second = await getTrajectory(b);
  if (!first || !second) notFound();
  const pages = Math.max(1, Math.ceil(Math.max(first.stepCount, second.stepCount) / STEPS_PER_PAGE));
  const page = Math.min(q.data.page, pages);
  const pager = (
    <Pager
      label="Step pages"
      page={page}
      pages={pages}
      href={(p) => `/compare?a=${a}&b=${b}&page=${p}`}
      previous="← earlier steps"
      next="later steps →"
    />
  );
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
