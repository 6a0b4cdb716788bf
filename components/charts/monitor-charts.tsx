"use client";
// ROC curves and reliability diagrams (lib/domain/monitor-charts.ts); a point opens its trajectories.

import { useRouter } from "next/navigation";
import {
  CartesianGrid,
  Legend,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ChartPoint, ChartSeries } from "@/lib/domain/monitor-charts";

const COLOURS = ["#0b5cad", "#b42318", "#e0a100", "#2e7d32", "#6a1b9a", "#00838f", "#5d4037", "#c2185b"];
const share = (v: unknown) => (typeof v === "number" ? `${(v * 100).toFixed(0)}%` : "—");

function PointTip({ active, payload }: { active?: boolean; payload?: Array<{ payload: ChartPoint }> }) {
  const p = active ? payload?.[0]?.payload : undefined;
  return p ? <div className="chart-tip">{p.label}</div> : null;
}

type Props = { title: string; series: ChartSeries[]; x: string; y: string; roc: boolean };

export function MonitorChart({ title, series, x, y, roc }: Props) {
  const router = useRouter();
  const open = (point: { payload?: ChartPoint }) => {
    if (point.payload?.href) router.push(point.payload.href);
  };
  return (
    <figure className="chart" aria-label={title}>
      <figcaption>
        {title} <span className="note">(a point opens its trajectories; the tables have the same figures)</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={340}>
        <ScatterChart margin={{ top: 10, right: 20, bottom: 30, left: 10 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="x"
            domain={[0, 1]}
            tickFormatter={share}
            name={x}
            label={{ value: x, position: "bottom" }}
          />
          <YAxis type="number" dataKey="y" domain={[0, 1]} tickFormatter={share} name={y} width={48} />
          <Tooltip content={<PointTip />} />
          <Legend verticalAlign="top" />
          <ReferenceLine
            segment={[
              { x: 0, y: 0 },
              { x: 1, y: 1 },
            ]}
            stroke="#999"
            strokeDasharray="4 4"
          />
          {roc ? (
            <ReferenceLine
              x={0.05}
              stroke="#222"
              strokeDasharray="2 3"
              label={{ value: "5% false alarms", position: "insideTopLeft", fontSize: 11 }}
            />
          ) : null}
          {series.map((s, i) => (
            <Scatter
              key={s.name}
              name={s.name}
              data={s.points}
              fill={COLOURS[i % COLOURS.length]}
              line={roc}
              cursor="pointer"
              onClick={open}
            />
          ))}
        </ScatterChart>
      </ResponsiveContainer>
    </figure>
  );
}
