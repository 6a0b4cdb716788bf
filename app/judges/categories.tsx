// The Judges page's categories: those in force with the verdicts given in each; researchers write versions.
import { type Column, DataTable } from "@/components/tables/data-table";
import type { CategoryUse } from "@/lib/data/categories";
import { countOf, formatTime } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";
import { CategoryForm } from "./category-form";
import { PromptCategory } from "./prompt-category";

export function CategorySection({
  categories,
  prompt,
  writes,
}: {
  categories: CategoryUse[];
  prompt: { version: number; categories: string[] };
  writes: boolean;
}) {
  return (
    <section aria-labelledby="categories">
      <h2 id="categories">Categories</h2>
      <p>
        The exploit categories judges and people give verdicts in, in the result table&apos;s order. Every version is
        kept; the newest of each key is in force.
      </p>
      <DataTable
        labelledBy="categories"
        rows={categories}
        rowKey={(c) => c.key}
        columns={categoryColumns(prompt, writes)}
      />
      {writes ? <CategoryForm /> : null}
    </section>
  );
}

/** The table's columns: key, name and definition, whether the newest prompt asks it, the verdicts given. */
function categoryColumns(prompt: { version: number; categories: string[] }, writes: boolean): Column<CategoryUse>[] {
  return [
    { key: "key", label: "Key", rowHeader: true, cell: (c) => c.key },
    {
      key: "what",
      label: "Name and definition",
      cell: (c) => (
        <>
          <strong>{shownText(c.name)}</strong>: {shownText(c.definition)}
          {c.examples.length ? (
            <ul className="examples">
              {c.examples.map((e, i) => (
                <li key={i}>{shownText(e)}</li>
              ))}
            </ul>
          ) : null}
          <small className="sub">
            {c.rank < 1000
              ? "built in"
              : c.createdAt.getTime() === 0
                ? "shipped with the app"
                : `by ${c.createdBy ?? "an import"}, ${formatTime(c.createdAt)}`}
          </small>
        </>
      ),
    },
    {
      key: "asked",
      label: "Asked",
      cell: (c) => {
        const asked = prompt.categories.includes(c.key);
        return (
          <>
            {asked ? `by prompt v${prompt.version}` : "not by the newest prompt"}
            {writes && (!asked || prompt.categories.length > 1) ? (
              <PromptCategory categoryKey={c.key} asked={asked} />
            ) : null}
          </>
        );
      },
    },
    {
      key: "given",
      label: "Verdicts given",
      cell: (c) => (
        <>
          {countOf(c.votes, "vote")}
          <br />
          {countOf(c.labels, "label")}
          <br />
          {countOf(c.gold, "gold label")}
        </>
      ),
    },
  ];
}
