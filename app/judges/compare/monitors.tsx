// Both panels as monitors against gold, side by side in each category, and their ROC curves.
import { MonitorChart } from "@/components/charts/monitor-charts";
import { FigureTable } from "@/components/tables/figure-table";
import { pageTable } from "@/lib/domain/figure-table";
import { rocSeries } from "@/lib/domain/monitor-charts";
import type { MonitorRow } from "@/lib/domain/monitor-report";
import { monitorModel } from "@/lib/domain/monitor-table";
import { ALL } from "@/lib/domain/monitors";

export function PanelMonitors({ rows }: { rows: MonitorRow[] }) {
  const roc = rocSeries(rows.filter((r) => r.category === ALL));
  return (
    <>
      <h2 id="monitors">As monitors</h2>
      <p className="note">
        Each panel ranking the trajectories with a gold label by the share of its votes saying attempted (overall, and
        in each category): AUROC with its 95% interval, how much it catches when false alarms are held to 5% of gold
        negatives, and balanced accuracy at its verdict. The Agreement page measures every judge and rule alike.
      </p>
      {rows.length ? (
        <FigureTable table={pageTable(monitorModel(rows, "panel-monitors"), "panel-monitors", "As monitors")} />
      ) : (
        <p className="empty">No gold label yet: monitors are measured against gold labels.</p>
      )}
      {roc.length ? (
        <MonitorChart
          title="ROC curves of the two panels"
          series={roc}
          x="false alarms (share of negatives)"
          y="caught (share of positives)"
          roc
        />
      ) : null}
    </>
  );
}
