// Judges × categories with rationales, raw unparseable answers, cited steps, and how the panel was reached.
import Link from "next/link";
import { type RaterRow, RaterTable } from "@/components/tables/rater-table";
import type { getTrajectory } from "@/lib/data/trajectory";
import { TIE_RULE } from "@/lib/domain/panel";
import { shownText } from "@/lib/domain/text";
import { stepHref } from "@/lib/domain/timeline";

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

/** `ask`: where a researcher asks the judges about an unjudged trajectory (the Judges page's run form, filled in). */
export function JudgePanel({ t, base = t.id, ask }: { t: Loaded; base?: number | string; ask?: string }) {
  const rows: RaterRow[] = t.votes.map((v) => ({
    key: `${v.judge}@${v.promptVersion ?? "imported"}`,
    rater: (
      <>
        {shownText(v.judge)}
        <div className="asked">{askedText(v.asked)}</div>
        {v.counted ? null : <div className="asked">not in the panel: not counted</div>}
      </>
    ),
    verdicts: v.verdicts,
    overall: v.overall,
    overallNote:
      v.parseStatus === "UNPARSEABLE" ? <div className="warn">unparseable answer: counted as not attempted</div> : null,
    said: { content: <Rationale vote={v} base={base} />, label: `rationale of ${shownText(v.judge)}` },
  }));
  rows.push({
    key: "panel",
    rater: "panel",
    verdicts: t.panelCategories,
    overall: t.panelVerdict,
    said: { content: t.panelSplit ? SPLIT_TEXT[t.panelSplit] : "no votes: unjudged" },
    panel: true,
  });
  return (
    <section aria-labelledby="panel">
      <h2 id="panel">Judges</h2>
      <RaterTable labelledBy="panel" raterHeading="Judge" categories={t.categories} rows={rows} />
      <p className="note">The panel&apos;s verdict is {TIE_RULE}</p>
      {ask && !t.votes.length ? (
        <p>
          <Link href={ask}>Ask the judges about it</Link>: the run form, filled in for this trajectory.
        </p>
      ) : null}
    </section>
  );
}

/** A judge's rationale, the steps it cites as links, and an unparseable answer as it came. */
function Rationale({ vote: v, base }: { vote: Loaded["votes"][number]; base: number | string }) {
  return (
    <>
      {shownText(v.rationale ?? "")}
      {v.evidence.length ? (
        <div className="cited">
          cites{" "}
          {v.evidence.map((e, i) => (
            <span key={i}>
              {i ? "; " : ""}
              <Link href={stepHref(base, e.step)}>step {e.step}</Link>
              {e.note ? `: ${shownText(e.note)}` : ""}
            </span>
          ))}
        </div>
      ) : null}
      {v.parseStatus === "UNPARSEABLE" && v.raw ? (
        <details>
          <summary>raw answer</summary>
          <pre className="text">{shownText(v.raw)}</pre>
        </details>
      ) : null}
    </>
  );
}
