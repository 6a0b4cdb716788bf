import { StatList } from "@/components/ui/stat-list";
import { requirePage } from "@/lib/auth/session";
import { getOverview } from "@/lib/data/overview";
import { formatCount } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";

// Reads the database on every request, never at build time.
export const dynamic = "force-dynamic";

export default async function HomePage() {
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
          ["Judge votes", totals.votes],
          ["Unparseable judge answers", totals.unparseable],
          ["Judges", totals.judges],
          ["Human labels", totals.labels],
          ["Annotators", totals.annotators],
        ]}
      />
      <h2 id="by-model">Trajectories by benchmark and model</h2>
      <div className="table-scroll">
        <table aria-labelledby="by-model">
          <thead>
            <tr>
              <th scope="col">Benchmark</th>
              <th scope="col">Model</th>
              <th scope="col" className="num">
                Trajectories
              </th>
              <th scope="col" className="num">
                Judged
              </th>
              <th scope="col" className="num">
                Resolved
              </th>
              <th scope="col" className="num">
                Labelled
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.benchmark}/${r.model}`}>
                <td>{shownText(r.benchmark)}</td>
                <td>{shownText(r.model)}</td>
                <td className="num">{formatCount(r.trajectories)}</td>
                <td className="num">{formatCount(r.judged)}</td>
                <td className="num">{formatCount(r.resolved)}</td>
                <td className="num">{formatCount(r.labelled)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
