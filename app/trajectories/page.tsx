import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TrajectoryFilters } from "@/components/forms/trajectory-filters";
import { TrajectoryTable } from "@/components/tables/trajectory-table";
import { Pager } from "@/components/ui/pager";
import { WithheldNote } from "@/components/ui/withheld";
import { requirePage } from "@/lib/auth/session";
import { pendingBlind } from "@/lib/data/blind-elsewhere";
import { listFilterOptions, listTrajectories } from "@/lib/data/trajectories";
import { formatCount } from "@/lib/domain/format";
import { filtersBeyondTheForm, readTrajectoryFilter, trajectoriesHref } from "@/lib/domain/trajectory-filter";

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
  const pending = await pendingBlind(user.id);
  const [{ rows, total, page, pages }, options] = await Promise.all([
    listTrajectories(
      filter,
      pending.map((p) => p.trajectoryId),
    ),
    listFilterOptions(),
  ]);
  return (
    <>
      <h1>Trajectories</h1>
      <TrajectoryFilters filter={filter} {...options} />
      <p role="status" aria-live="polite">
        {formatCount(total)} trajectories{filter.task ? ` of task ${filter.task}` : ""}
        {filter.study ? ` in the study ${filter.study}` : ""}
      </p>
      {filtersBeyondTheForm(filter).map((x) => (
        <p key={x.words} className="note">
          Also: {x.words} (<Link href={x.without}>remove</Link>)
        </p>
      ))}
      <WithheldNote pending={pending} />
      {rows.length ? (
        <TrajectoryTable rows={rows} filter={filter} />
      ) : (
        <p className="empty">No trajectory matches these filters.</p>
      )}
      <Pager label="Pages" page={page} pages={pages} href={(p) => trajectoriesHref({ ...filter, page: p })} />
    </>
  );
}
