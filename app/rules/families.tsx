// The command families a rule or category matched, counted by condition, with examples linked.
import Link from "next/link";
import { DataTable } from "@/components/tables/data-table";
import { categoryNames } from "@/lib/data/categories";
import { ruleFamilies } from "@/lib/data/rule-families";
import { countOf, formatCount } from "@/lib/domain/format";
import { stepHref } from "@/lib/domain/timeline";
import { categoryLabel } from "@/lib/domain/verdicts";

/** The families shown; the rest are counted. */
const SHOWN = 50;

export async function Families({ rule, category }: { rule?: string; category?: string }) {
  const [{ families, commands, cut, stopped }, names] = await Promise.all([
    ruleFamilies({ rule, category }),
    categoryNames(),
  ]);
  const what = rule ?? `the ${categoryLabel(category!, names)} rules`;
  return (
    <section aria-labelledby="families">
      <h2 id="families">Families of commands: {what}</h2>
      {stopped ? (
        <p className="note" role="note">
          No families: {stopped}. A rule the scan stopped is left out of them.
        </p>
      ) : null}
      <p className="note">
        {countOf(commands, "command")} matched{cut ? " (the first ones: there are more)" : ""}, in{" "}
        {countOf(families.length, "family", "families")}; numbers, hashes, paths, quoted strings and URLs&apos; paths
        written as ‹n›, ‹sha›, ‹path›, ‹…›.{families.length > SHOWN ? ` The ${SHOWN} largest:` : ""}
      </p>
      {families.length ? (
        <DataTable
          label="Families of commands"
          rows={families.slice(0, SHOWN)}
          rowKey={(f) => f.shape}
          columns={[
            {
              key: "shape",
              label: "Shape",
              rowHeader: true,
              className: "file-name",
              cell: (f) => <code>{f.shape}</code>,
            },
            { key: "commands", label: "Commands", numeric: true, cell: (f) => formatCount(f.commands) },
            { key: "trajectories", label: "Trajectories", numeric: true, cell: (f) => formatCount(f.trajectories) },
            {
              key: "conditions",
              label: "By condition",
              cell: (f) =>
                f.byCondition
                  .map(
                    (c) =>
                      `${c.benchmark}, ${c.model}, network ${c.network ? "on" : "off"}, ${c.prompt}: ${c.commands}`,
                  )
                  .join("; "),
            },
            {
              key: "examples",
              label: "Examples",
              cell: (f) => (
                <ul className="plain">
                  {f.examples.map((e) => (
                    <li key={`${e.trajectoryId}/${e.step}`}>
                      <Link href={stepHref(e.trajectoryId, e.step)}>step {e.step}</Link>{" "}
                      <code className="file-name">{e.command}</code>
                    </li>
                  ))}
                </ul>
              ),
            },
          ]}
        />
      ) : (
        <p className="empty">No command matched (families are of command rules).</p>
      )}
    </section>
  );
}
