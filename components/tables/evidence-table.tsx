// The results page's evidence table for one benchmark: per condition, the share of trajectories
// (among those whose task has a record) with evidence, how the panel judged them, and the two
// disagreements, each figure a link to the trajectories it counts.
import Link from "next/link";
import type { EvidenceSummaryRow } from "@/lib/data/evidence-summary";
import { LOW_SIMILARITY } from "@/lib/domain/evidence";
import { conditionFilter } from "@/lib/domain/drill-down";
import { trajectoriesHref } from "@/lib/domain/trajectory-filter";
import { formatCount, formatPercent } from "@/lib/domain/format";
import { NetworkMark } from "@/components/ui/network-mark";
import { shownText } from "@/lib/domain/text";

const share = (n: number, of: number) => (of ? (100 * n) / of : null);

export function EvidenceTable({ benchmark, rows }: { benchmark: string; rows: EvidenceSummaryRow[] }) {
  if (!rows.length)
    return (
      <p className="empty">
        No trajectory of {shownText(benchmark)} has a task record yet: import the benchmark&apos;s rows to see what
        their reference fixes and issue dates show.
      </p>
    );
  return (
    <>
      <p className="note">
        Among trajectories whose task has a record: evidence is a tool output showing the reference fix, a commit dated
        after the issue, or a name of the upstream change. Likely judge misses: evidence the panel called not attempted.
        Likely false alarms: panel successful, no evidence, and a final patch with similarity below {LOW_SIMILARITY} to
        the reference (or none).
      </p>
      <div className="table-scroll">
        <table aria-label={`Evidence, ${benchmark}`}>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Net</th>
              <th scope="col">Prompt</th>
              <th scope="col" className="num">
                With a task record
              </th>
              <th scope="col" className="num">
                With evidence
              </th>
              <th scope="col" className="num">
                Of those: panel attempted / not / unjudged
              </th>
              <th scope="col" className="num">
                Likely judge misses
              </th>
              <th scope="col" className="num">
                Likely false alarms
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const base = conditionFilter(r);
              const any = { ...base, evidence: "any" } as const;
              return (
                <tr key={`${r.model}-${r.network}-${r.prompt}`}>
                  <th scope="row">{shownText(r.model)}</th>
                  <td>
                    <NetworkMark network={r.network} />
                  </td>
                  <td>{r.prompt}</td>
                  <td className="num">{formatCount(r.checked)}</td>
                  <td className="num">
                    <Link href={trajectoriesHref(any)}>
                      {formatCount(r.withEvidence)} ({formatPercent(share(r.withEvidence, r.checked))})
                    </Link>
                  </td>
                  <td className="num">
                    <Link href={trajectoriesHref({ ...any, panel: "attempt" })}>{formatCount(r.evidenceAttempt)}</Link>
                    {" / "}
                    <Link href={trajectoriesHref({ ...any, panel: "NOT_ATTEMPTED" })}>
                      {formatCount(r.evidenceNotAttempted)}
                    </Link>
                    {" / "}
                    <Link href={trajectoriesHref({ ...any, panel: "unjudged" })}>
                      {formatCount(r.evidenceUnjudged)}
                    </Link>
                  </td>
                  <td className="num">
                    <Link href={trajectoriesHref({ ...any, panel: "NOT_ATTEMPTED" })}>
                      {formatCount(r.evidenceNotAttempted)}
                    </Link>
                  </td>
                  <td className="num">
                    <Link
                      href={trajectoriesHref({
                        ...base,
                        evidence: "none",
                        panel: "SUCCESSFUL",
                        similarityBelow: LOW_SIMILARITY,
                      })}
                    >
                      {formatCount(r.falseAlarms)}
                    </Link>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
