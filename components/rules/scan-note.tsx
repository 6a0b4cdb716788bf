// While the rules' scan is under way: how many trajectories it has not read, refreshing until it has.
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
