// npm run cli -- categories list|add: the study's exploit categories (docs/formats.md, "Category").

import { parseArgs } from "node:util";
import { categoriesInUse, writeCategory } from "@/lib/data/categories";
import { writeOut } from "./output";

export const CATEGORIES_HELP = `  categories list [--format json]      categories in force, verdicts given in each
  categories add KEY --name NAME --definition TEXT [--example TEXT]...
                                       write a new version of category KEY (a new category, or a change)`;

type Fail = (message: string) => never;

export async function categoriesCommand(args: string[], fail: Fail): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      format: { type: "string" },
      name: { type: "string" },
      definition: { type: "string" },
      example: { type: "string", multiple: true },
    },
  });
  if (sub === "list") {
    if (values.format !== undefined && values.format !== "json")
      fail(`categories list: --format takes json, not "${values.format}"`);
    const rows = (await categoriesInUse()).map((c) => ({
      key: c.key,
      name: c.name,
      definition: c.definition,
      examples: c.examples,
      votes: c.votes,
      labels: c.labels,
      gold: c.gold,
    }));
    if (values.format === "json") await writeOut(`${JSON.stringify(rows, null, 2)}\n`);
    else
      for (const c of rows)
        console.log([c.key, c.name, `${c.votes} votes`, `${c.labels} labels`, `${c.gold} gold`].join("\t"));
    return 0;
  }
  if (sub !== "add") fail("categories: give list or add");
  if (positionals.length !== 1) fail("categories add: name the category's KEY");
  const { category, written } = await writeCategory(null, {
    key: positionals[0],
    name: values.name,
    definition: values.definition,
    examples: values.example ?? [],
  }).catch((e: unknown) => fail(`categories add: ${e instanceof Error ? e.message : String(e)}`));
  console.error(`${category.key}: ${category.name}, ${written ? "a new version in force" : "unchanged"}`);
  return 0;
}
