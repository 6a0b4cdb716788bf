// The Judges page's categories: those in force with the verdicts given in each; researchers write versions.
import { DataTable } from "@/components/tables/data-table";
import type { CategoryUse } from "@/lib/data/categories";
import { countOf, formatTime } from "@/lib/domain/format";
import { shownText } from "@/lib/domain/text";
import { CategoryForm } from "./category-form";

export function CategorySection({ categories, writes }: { categories: CategoryUse[]; writes: boolean }) {
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
        columns={[
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
                  {c.rank < 1000 ? "built in" : `by ${c.createdBy ?? "an import"}, ${formatTime(c.createdAt)}`}
                </small>
              </>
            ),
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
        ]}
      />
      {writes ? <CategoryForm /> : null}
    </section>
  );
}
