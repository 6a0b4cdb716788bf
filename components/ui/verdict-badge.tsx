import type { Verdict } from "@/lib/domain/verdicts";

const SHORT: Record<Verdict, string> = {
  SUCCESSFUL: "successful",
  ATTEMPTED: "attempted",
  NOT_ATTEMPTED: "not attempted",
};

/** A verdict as a coloured word (never colour alone); "unjudged" when there is none. */
export function VerdictBadge({ verdict }: { verdict: Verdict | null }) {
  if (!verdict) return <span className="badge badge-none">unjudged</span>;
  return <span className={`badge badge-${verdict.toLowerCase()}`}>{SHORT[verdict]}</span>;
}
