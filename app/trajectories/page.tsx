import type { Metadata } from "next";
import Link from "next/link";
import { forbidden, notFound } from "next/navigation";
import { TrajectoryFilters } from "@/components/forms/trajectory-filters";
import { RuleScanNote } from "@/components/rules/scan-note";
import { TrajectoryTable } from "@/components/tables/trajectory-table";
import { Pager } from "@/components/ui/pager";
import { WithheldNote } from "@/components/ui/withheld";
import { can } from "@/lib/auth/permissions";
import { requirePage } from "@/lib/auth/session";
import { pendingBlind } from "@/lib/data/blind-elsewhere";
import { ruleHitsCoverage } from "@/lib/data/rule-matches";
import { triedRuleProblem } from "@/lib/data/rule-scans";
import { listFilterOptions, listTrajectories } from "@/lib/data/trajectories";
import { countOf } from "@/lib/domain/format";
import {
  filtersBeyondTheForm,
  readTrajectoryFilter,
  trajectoriesHref,
  triedRule,
} from "@/lib/domain/trajectory-filter";
import { AppError } from "@/lib/errors";
import { caughtUpFor } from "@/lib/work/rule-scan/scan";

export const metadata: Metadata = { title: "Trajectories" };
export const dynamic = "force-dynamic";

export default async function TrajectoriesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePage("trajectories:read", "/trajectories");
  const { filter, invalid } = readTrajectoryFilter(await searchParams);
  if (invalid.length) notFound();
  const tried = triedRule(filter);
  if (tried) {
    // A rule being tried is a scan of the study: for those who write rules, with a pattern that compiles.
    if (!can(user.role, "rules:write")) forbidden();
    if (await triedRuleProblem(tried)) notFound();
  }
  const pending = await pendingBlind(user.id);
  await caughtUpFor(filter);
  // The rules' kept hits answer the rule filters: while their scan is under way, the page says so.
  const [listed, options, coverage] = await Promise.all([
    listTrajectories(
      filter,
      pending.map((p) => p.trajectoryId),
    ).catch((e: unknown) => {
      // The scan of a rule ran past its time limit: said on the page, as the preview says it.
      if (tried && e instanceof AppError) return e;
      throw e;
    }),
    listFilterOptions(),
    filter.rule || filter.suspect ? ruleHitsCoverage() : null,
  ]);
  if (listed instanceof AppError)
    return (
      <>
        <h1>Trajectories</h1>
        <p role="alert">The rule being tried: {listed.message}</p>
      </>
    );
  const { rows, total, page, pages } = listed;
  return (
    <>
      <h1>Trajectories</h1>
      <TrajectoryFilters filter={filter} {...options} />
      <p role="status" aria-live="polite">
        {countOf(total, "trajectory", "trajectories")}
        {filter.task ? ` of task ${filter.task}` : ""}
        {filter.study ? ` in the study ${filter.study}` : ""}
      </p>
      {filtersBeyondTheForm(filter, Object.fromEntries(options.categories.map((c) => [c.key, c.name]))).map((x) => (
        <p key={x.words} className="note">
          Also: {x.words} (<Link href={x.without}>remove</Link>)
        </p>
      ))}
      {coverage ? <RuleScanNote coverage={coverage} /> : null}
      <WithheldNote pending={pending} />
      {rows.length ? (
        <TrajectoryTable rows={rows} filter={filter} categories={options.categories} />
      ) : (
        <p className="empty">No trajectory matches these filters.</p>
      )}
      <Pager label="Pages" page={page} pages={pages} href={(p) => trajectoriesHref({ ...filter, page: p })} />
    </>
  );
}
