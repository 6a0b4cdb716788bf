// Judges × categories: each verdict, each judge's overall verdict and rationale, the raw answer of
// unparseable ones, cited steps as links, and the panel with how it was reached.
import Link from "next/link";
import { VerdictBadge } from "@/components/ui/verdict-badge";
import type { getTrajectory } from "@/lib/data/trajectory";
import { stepHref } from "@/lib/domain/timeline";
import { CATEGORIES, CATEGORY_LABELS, PANEL_FIELDS } from "@/lib/domain/verdicts";

type Loaded = NonNullable<Awaited<ReturnType<typeof getTrajectory>>>;

const SPLIT_TEXT = {
  UNANIMOUS: "unanimous",
  MAJORITY: "strict majority",
  NO_MAJORITY: "no majority: counted as attempted",
} as const;

const number = new Intl.NumberFormat("en");

/** How a vote came: imported, or asked by the app under a prompt version, with what it cost. */
export function askedText(asked: Loaded["votes"][number]["asked"]): string {
  if (!asked) return "imported";
  const parts = [
    `asked under prompt v${asked.promptVersion}`,
    asked.model ?? "",
    asked.temperature == null ? "" : `temperature ${asked.temperature}`,
    asked.tokensIn == null ? "" : `${number.format(asked.tokensIn)} → ${number.format(asked.tokensOut ?? 0)} tokens`,
    asked.ms == null ? "" : `${(asked.ms / 1000).toFixed(1)} s`,
    asked.cost == null ? "" : `$${asked.cost.toFixed(4)}`,
    asked.truncated ? `cut ${number.format(asked.cutChars ?? 0)} characters to fit` : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

export function JudgePanel({ t, base = t.id }: { t: Loaded; base?: number | string }) {
  return (
    <section aria-labelledby="panel">
      <h2 id="panel">Judges</h2>
      <div className="table-scroll">
        <table aria-labelledby="panel">
          <thead>
            <tr>
              <th scope="col">Judge</th>
              {CATEGORIES.map((c) => (
                <th key={c} scope="col">
                  {CATEGORY_LABELS[c]}
                </th>
              ))}
              <th scope="col">Overall</th>
            </tr>
          </thead>
          <tbody>
            {t.votes.flatMap((v) => [
              <tr key={v.judge} className="judge-row">
                <th scope="row">
                  {v.judge}
                  <div className="asked">{askedText(v.asked)}</div>
                </th>
                {CATEGORIES.map((c) => (
                  <td key={c}>
                    <VerdictBadge verdict={v.verdicts[c]} />
                  </td>
                ))}
                <td>
                  <VerdictBadge verdict={v.overall} />
                  {v.parseStatus === "UNPARSEABLE" ? (
                    <div className="warn">unparseable answer: counted as not attempted</div>
                  ) : null}
                </td>
              </tr>,
              // The rationale and cited steps on a row of their own, the table's whole width: they wrap there.
              <tr key={`${v.judge}-rationale`} className="rationale-row">
                <td colSpan={CATEGORIES.length + 2} className="text" aria-label={`rationale of ${v.judge}`}>
                  {v.rationale ?? ""}
                  {v.evidence.length ? (
                    <div className="cited">
                      cites{" "}
                      {v.evidence.map((e, i) => (
                        <span key={i}>
                          {i ? "; " : ""}
                          <Link href={stepHref(base, e.step)}>step {e.step}</Link>
                          {e.note ? `: ${e.note}` : ""}
                        </span>
                      ))}
                    </div>
                  ) : null}
                  {v.parseStatus === "UNPARSEABLE" && v.raw ? (
                    <details>
                      <summary>raw answer</summary>
                      <pre className="text">{v.raw}</pre>
                    </details>
                  ) : null}
                </td>
              </tr>,
            ])}
            <tr className="panel-row judge-row">
              <th scope="row">panel</th>
              {CATEGORIES.map((c) => (
                <td key={c}>
                  <VerdictBadge verdict={t[PANEL_FIELDS[c]]} />
                </td>
              ))}
              <td>
                <VerdictBadge verdict={t.panelVerdict} />
              </td>
            </tr>
            <tr className="panel-row rationale-row">
              <td colSpan={CATEGORIES.length + 2} className="text">
                {t.panelSplit ? SPLIT_TEXT[t.panelSplit] : "no votes: unjudged"}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
