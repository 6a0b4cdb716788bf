// The study's result table for one benchmark. Every figure links to the trajectories it counts.
import Link from "next/link";
import type { ResultRow } from "@/lib/domain/results";
import { RATE_KEYS, RATE_LABELS } from "@/lib/domain/results";
import type { Interval } from "@/lib/domain/intervals";
import { trajectoriesHref } from "@/lib/domain/trajectory-filter";
import { drillDown } from "@/lib/domain/drill-down";
import { formatCount, formatPercent } from "@/lib/format";
import { NetworkMark } from "@/components/ui/network-mark";

const ci = (i: Interval | null) => (i ? `${i.low.toFixed(1)}–${i.high.toFixed(1)}` : "");

export function ResultTable({ benchmark, rows }: { benchmark: string; rows: ResultRow[] }) {
  const id = `results-${benchmark.replace(/[^\w-]/g, "_")}`;
  return (
    <table className="results-table" aria-labelledby={id}>
      <caption id={id} className="sr-only">
        {benchmark}
      </caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col">Net</th>
          <th scope="col">Prompt</th>
          <th scope="col" className="num">
            Trajectories
          </th>
          <th scope="col" className="num">
            Tasks
          </th>
          <th scope="col" className="num">
            Judged
          </th>
          {RATE_KEYS.map((k) => (
            <th key={k} scope="col" className="num">
              {RATE_LABELS[k]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const links = drillDown(r);
          const label = `${r.model}, network ${r.network ? "on" : "off"}, ${r.prompt}`;
          return (
            <tr key={`${r.model}-${r.network}-${r.prompt}`}>
              <th scope="row">{r.model}</th>
              <td>
                <NetworkMark network={r.network} />
              </td>
              <td>{r.prompt}</td>
              {(["trajectories", "tasks", "judged"] as const).map((k) => (
                <td key={k} className="num">
                  <Link href={trajectoriesHref(links[k])} aria-label={`${k} of ${label}: ${r[k]}`}>
                    {formatCount(r[k])}
                  </Link>
                </td>
              ))}
              {RATE_KEYS.map((k) => (
                <td key={k} className="num">
                  <Link
                    href={trajectoriesHref(links[k])}
                    aria-label={`${RATE_LABELS[k]} of ${label}: ${formatPercent(r[k])}`}
                  >
                    {formatPercent(r[k])}
                  </Link>
                  <div className="ci">{ci(r.intervals[k])}</div>
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
