// One task's trajectories side by side, aligned by step. Old links (?a=&b=) still open.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { TableScroll } from "@/components/tables/table-scroll";
import { StepList } from "@/components/timeline/step-list";
import { Pager } from "@/components/ui/pager";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import { Withheld } from "@/components/ui/withheld";
import { requirePage } from "@/lib/auth/session";
import { withheldFrom } from "@/lib/data/blind-elsewhere";
import { categoryNames } from "@/lib/data/categories";
import { getSteps, getSuspectSteps, getTrajectory, type StepMessage } from "@/lib/data/trajectory";
import { networkMark } from "@/lib/domain/charts";
import { IdParam, wholeNumber } from "@/lib/domain/params";
import { shownText } from "@/lib/domain/text";
import { COMPARE_MAX, pageSteps, STEPS_PER_PAGE } from "@/lib/domain/timeline";
import type { CategoryNames } from "@/lib/domain/verdicts";

export const metadata: Metadata = { title: "Side by side" };
export const dynamic = "force-dynamic";

const Ids = z
  .string()
  .max(200)
  .transform((s) => s.split(","))
  .pipe(z.array(IdParam).min(2).max(COMPARE_MAX))
  .refine((ids) => new Set(ids).size === ids.length);
const Query = z.object({ ids: Ids, page: wholeNumber(1).catch(1).default(1) });

type Params = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => [v].flat()[0];

function readQuery(params: Params) {
  const ids = first(params.ids) ?? [first(params.a), first(params.b)].join(",");
  return Query.safeParse({ ids, page: first(params.page) });
}

export default async function ComparePage({ searchParams }: { searchParams: Promise<Params> }) {
  const user = await requirePage("trajectories:read", "/compare");
  const q = readQuery(await searchParams);
  if (!q.success) notFound();
  const { ids } = q.data;
  const pending = await withheldFrom(user, ids);
  if (pending) return <Withheld pending={pending} />;
  const loaded = await Promise.all(ids.map((id) => getTrajectory(id)));
  const names = await categoryNames();
  if (loaded.some((t) => !t)) notFound();
  const ts = loaded as Array<NonNullable<(typeof loaded)[number]>>;
  if (new Set(ts.map((t) => t.task.key)).size > 1)
    return (
      <>
        <h1>Side by side</h1>
        <p role="alert" className="error">
          These trajectories are of different tasks ({[...new Set(ts.map((t) => t.task.key))].join(", ")}): compare
          takes the trajectories of one task.
        </p>
      </>
    );
  const pages = Math.max(1, Math.ceil(Math.max(...ts.map((t) => t.stepCount)) / STEPS_PER_PAGE));
  const page = Math.min(q.data.page, pages);
  const { from, to } = pageSteps(page);
  const sides = await Promise.all(
    ts.map(async (t) => ({ t, steps: await getSteps(t.id, from, to), suspects: await getSuspectSteps(t.id) })),
  );
  const last = Math.min(to, Math.max(...ts.map((t) => t.stepCount)));
  const stepNumbers = Array.from({ length: Math.max(0, last - from + 1) }, (_, i) => from + i);
  const pager = (
    <Pager
      label="Step pages"
      page={page}
      pages={pages}
      href={(p) => `/compare?ids=${ids.join(",")}&page=${p}`}
      previous="← earlier steps"
      next="later steps →"
    />
  );
  return (
    <>
      <h1>
        {ts[0]!.task.key}: {ts.length} side by side
      </h1>
      <p className="note">
        Aligned by step: each row is one step (the task prompt is step 0), what each trajectory did at it. The box
        scrolls sideways when the columns are wider than the page.
      </p>
      {pager}
      <CompareTable sides={sides} stepNumbers={stepNumbers} names={names} />
      {pager}
    </>
  );
}

type Side = {
  t: NonNullable<Awaited<ReturnType<typeof getTrajectory>>>;
  steps: StepMessage[];
  suspects: Awaited<ReturnType<typeof getSuspectSteps>>;
};

const atStep = (messages: StepMessage[], step: number) => messages.filter((m) => m.step === step);

/** One row a step, one column a trajectory: what each did at that step. */
function CompareTable({ sides, stepNumbers, names }: { sides: Side[]; stepNumbers: number[]; names: CategoryNames }) {
  return (
    <TableScroll label="Trajectories by step">
      <table
        className="compare-table"
        style={{ minWidth: `${5 + sides.length * 20}rem` }}
        aria-label="Trajectories by step"
      >
        <thead>
          <tr>
            <th scope="col" className="compare-step">
              Step
            </th>
            {sides.map(({ t, suspects }) => (
              <th key={t.id} scope="col">
                <Link href={`/trajectories/${t.id}`}>
                  {shownText(t.model.name)} · net {networkMark(t.network)} · {t.prompt} · run {t.run}
                </Link>
                <div className="ci">
                  resolved {t.resolved === null ? "—" : t.resolved ? "yes" : "no"} · panel{" "}
                  <VerdictBadge verdict={t.panelVerdict} /> · {t.stepCount} steps · {suspects.length} suspect
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {stepNumbers.map((step) => (
            <tr key={step}>
              <th scope="row" className="compare-step">
                {step === 0 ? "prompt" : step}
              </th>
              {sides.map(({ t, steps, suspects }) => {
                const here = atStep(steps, step);
                return (
                  <td key={t.id}>
                    {here.length ? (
                      <StepList
                        names={names}
                        trajectoryId={t.id}
                        messages={here}
                        suspects={suspects}
                        citations={t.citations}
                        anchors={false}
                      />
                    ) : (
                      <span className="empty">{step > t.stepCount ? "ended" : "—"}</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
