// The monitors' pictures as data: ROC curves and reliability bins, each point opening its trajectories.
import type { MonitorRow } from "./monitor-report";
import { monitorText } from "./monitor-table";
import { type ReliabilityBin, type RocPoint, reliabilityBins, rocCurve, type ScoredPoint } from "./monitors";
import { trajectoriesHref } from "./trajectory-filter";

export type ChartPoint = { x: number; y: number; n: number; href?: string; label: string };
export type ChartSeries = { name: string; points: ChartPoint[] };

const pointsOf = (r: MonitorRow): ScoredPoint[] =>
  (r.scores ?? []).map(([trajectoryId, score, positive]) => ({ trajectoryId, score, positive: positive === 1 }));

const href = (ids: readonly number[] | null, study: string | null) =>
  ids?.length ? trajectoriesHref({ ids: [...ids], ...(study ? { study } : {}) }) : undefined;

/** One ROC curve per overall row that has scores (both classes of gold). */
export function rocSeries(rows: readonly MonitorRow[], study: string | null = null): ChartSeries[] {
  return rows.flatMap((r) => {
    const curve = rocCurve(pointsOf(r));
    if (!curve) return [];
    const point = (p: RocPoint): ChartPoint => ({
      x: p.fpr,
      y: p.tpr,
      n: p.flagged,
      href: href(p.ids, study),
      label:
        p.threshold === null
          ? "flags nothing"
          : `score ≥ ${p.threshold.toFixed(2)}: ${p.flagged} flagged, ${(p.tpr * 100).toFixed(0)}% caught, ` +
            `${(p.fpr * 100).toFixed(0)}% false alarms`,
    });
    return [{ name: monitorText(r), points: curve.map(point) }];
  });
}

/** One series per judge row whose scores came (in part) from its confidence. */
export function reliabilitySeries(rows: readonly MonitorRow[], study: string | null = null): ChartSeries[] {
  return rows
    .filter((r) => r.kind === "judge" && r.confident > 0 && r.scores?.length)
    .map((r) => ({
      name: monitorText(r),
      points: reliabilityBins(pointsOf(r)).map(
        (b: ReliabilityBin): ChartPoint => ({
          x: b.predicted,
          y: b.observed,
          n: b.n,
          href: href(b.ids.length <= 500 ? b.ids : null, study),
          label:
            `confidence ${b.low.toFixed(1)}–${b.high.toFixed(1)}: ${b.n} ` +
            `trajector${b.n === 1 ? "y" : "ies"}, ${(b.observed * 100).toFixed(0)}% positive`,
        }),
      ),
    }));
}
