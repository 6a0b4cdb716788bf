import { redirect } from "next/navigation";
import { DataTable } from "@/components/tables/data-table";
import { StatList } from "@/components/ui/stat-list";
import { can } from "@/lib/auth/permissions";
import { currentUser, requirePage } from "@/lib/auth/session";
import { getOverview } from "@/lib/data/overview";
import { formatCount } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  // An annotator's home is their queue: the overview is not theirs to read.
  const user = await currentUser();
  if (user && !can(user.role, "overview:read") && can(user.role, "labels:write")) redirect("/queue");
  await requirePage("overview:read", "/");
  const { totals, rows } = await getOverview();
  return (
    <>
      <h1>Overview</h1>
      {totals.trajectories === 0 ? (
        <p className="empty">
          The database is empty. Import trajectories with <code>npm run cli -- import FILE</code>.
        </p>
      ) : null}
      <StatList
        label="Totals"
        items={[
          ["Trajectories", totals.trajectories],
          ["Tasks", totals.tasks],
          ["Judge answers", totals.votes],
          ["Counted by the panel in force", totals.counted],
          ["Unparseable among them", totals.unparseable],
          ["Judges", totals.judges],
          ["Human labels", totals.labels],
          ["Annotators", totals.annotators],
        ]}
      />
      <h2 id="by-model">Trajectories by benchmark and model</h2>
      <DataTable
        labelledBy="by-model"
        rows={rows}
        rowKey={(r) => `${r.benchmark}/${r.model}`}
        columns={[
          { key: "benchmark", label: "Benchmark", cell: (r) => shownText(r.benchmark) },
          { key: "model", label: "Model", cell: (r) => shownText(r.model) },
          { key: "trajectories", label: "Trajectories", numeric: true, cell: (r) => formatCount(r.trajectories) },
          { key: "judged", label: "Judged", numeric: true, cell: (r) => formatCount(r.judged) },
          { key: "resolved", label: "Resolved", numeric: true, cell: (r) => formatCount(r.resolved) },
          { key: "labelled", label: "Labelled", numeric: true, cell: (r) => formatCount(r.labelled) },
        ]}
      />
    </>
  );
}
