// Said where figures come from the rules' kept hits while their scan is under way (a rule just
// written, trajectories just imported: lib/data/rule-matches.ts): how many trajectories it has not
// read, so a count is never taken for the whole study; the page refreshes itself until it has.
import { AutoRefresh } from "@/components/ui/auto-refresh";
import type { RuleHitsCoverage } from "@/lib/data/rule-matches";
import { formatCount } from "@/lib/domain/format";

export function RuleScanNote({ coverage }: { coverage: RuleHitsCoverage }) {
  if (!coverage.unscanned) return null;
  return (
    <>
      <p className="warn" role="status">
        The rules have not yet read {formatCount(coverage.unscanned)} of {formatCount(coverage.trajectories)}{" "}
        trajectories (a rule just written, or trajectories just imported): the rule counts here leave those out.
      </p>
      <AutoRefresh seconds={5} what="Their scan is" />
    </>
  );
}
