import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TrajectoryFilters } from "@/components/forms/trajectory-filters";
import { TrajectoryTable } from "@/components/tables/trajectory-table";
import { Pager } from "@/components/ui/pager";
import { listFilterOptions, listTrajectories } from "@/lib/data/trajectories";
import { readTrajectoryFilter, trajectoriesHref } from "@/lib/domain/trajectory-filter";
import { formatCount } from "@/lib/format";
import { requirePage } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Trajectories" };
export const dynamic = "force-dynamic";

export default async function TrajectoriesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePage("trajectories:read", "/trajectories");
  const { filter, invalid } = readTrajectoryFilter(await searchParams);
  if (invalid.length) notFound();
  const [{ rows, total, page, pages }, options] = await Promise.all([listTrajectories(filter), listFilterOptions()]);
  return (
    <>
      <h1>Trajectories</h1>
      <TrajectoryFilters filter={filter} {...options} />
      <p role="status" aria-live="polite">
        {formatCount(total)} trajectories{filter.task ? ` of task ${filter.task}` : ""}
      </p>
      {rows.length ? (
        <TrajectoryTable rows={rows} filter={filter} />
      ) : (
        <p className="empty">No trajectory matches these filters.</p>
      )}
      <Pager label="Pages" page={page} pages={pages} href={(p) => trajectoriesHref({ ...filter, page: p })} />
    </>
  );
}
