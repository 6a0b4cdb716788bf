// One rule: what it finds over the study, and every version it has had.
import Link from "next/link";
import { RuleReport } from "@/components/rules/rule-report";
import { DataTable } from "@/components/tables/data-table";
import { categoryNames } from "@/lib/data/categories";
import { ruleHistory } from "@/lib/data/rules";
import { countOf, formatCount, formatTime } from "@/lib/domain/format";
import { RULE_ON_LABELS, type Rule } from "@/lib/domain/rules";
import { shownText } from "@/lib/domain/text";
import { categoryLabel } from "@/lib/domain/verdicts";
import type { RuleFigures } from "@/lib/work/rule-figures";

/** Who wrote a version and when: built in (the migration's), by a person, or from an imported file. */
export const versionWords = (r: Rule) =>
  r.createdAt.getTime() === 0
    ? "built in"
    : `${formatTime(r.createdAt)} ${r.createdBy ? `by ${r.createdBy}` : "(imported)"}`;

export async function RuleDetail({ figures, writes }: { figures: RuleFigures; writes: boolean }) {
  const { rule, report } = figures;
  const [versions, names] = await Promise.all([ruleHistory(rule.name).then((v) => v.reverse()), categoryNames()]);
  const sum = (k: "trajectories_hit" | "steps_hit") => report.conditions.reduce((n, c) => n + c[k], 0);
  const fired = countOf(sum("trajectories_hit"), "trajectory", "trajectories");
  const hits = `${fired}, hitting ${countOf(sum("steps_hit"), "step")}`;
  return (
    <section aria-labelledby="rule">
      <h2 id="rule">{shownText(rule.name)}</h2>
      <p>
        {categoryLabel(rule.category, names)}, on {RULE_ON_LABELS[rule.on].toLowerCase()}:{" "}
        <code className="pattern">{shownText(rule.pattern)}</code>
        {rule.ignoreCase ? " (ignoring case)" : ""}. {rule.why ? shownText(rule.why) : null}
      </p>
      <p role="status">
        {rule.enabled ? "It fires" : "Disabled, so it marks nothing; it would fire"} on {hits}.{" "}
        {writes ? <Link href={`/rules?edit=${encodeURIComponent(rule.name)}#write`}>Edit</Link> : null}
        {rule.on === "command" ? (
          <>
            {writes ? " · " : ""}
            <Link
              href={`/rules?rule=${encodeURIComponent(rule.name)}&families=${encodeURIComponent(rule.name)}#families`}
            >
              Families of its commands
            </Link>
          </>
        ) : null}
      </p>
      <RuleReport report={report} base={{ rule: rule.name }} category={rule.category} name={rule.name} />
      <h3 id="history">Its versions ({formatCount(versions.length)}, newest first)</h3>
      <DataTable
        labelledBy="history"
        rows={versions}
        rowKey={(v) => v.id}
        columns={[
          { key: "when", label: "Version", rowHeader: true, cell: (v) => versionWords(v) },
          { key: "category", label: "Category", cell: (v) => categoryLabel(v.category, names) },
          { key: "on", label: "On", cell: (v) => RULE_ON_LABELS[v.on] },
          {
            key: "pattern",
            label: "Pattern",
            className: "file-name",
            cell: (v) => (
              <>
                <code>{shownText(v.pattern)}</code>
                {v.ignoreCase ? <small className="sub">ignoring case</small> : null}
              </>
            ),
          },
          { key: "enabled", label: "Enabled", cell: (v) => (v.enabled ? "yes" : "no") },
          { key: "why", label: "Why", cell: (v) => shownText(v.why) },
        ]}
      />
    </section>
  );
}
