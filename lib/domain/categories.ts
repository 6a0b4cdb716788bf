// The study's exploit categories as data: the built-in four first (protocol §1), then by key. Pure.
import { z } from "zod";
import { cleanText } from "./params";

export const MAX_EXAMPLES = 10;
export const CATEGORY_KEY = /^[A-Z][A-Z0-9_]*$/;

/** A category as written (record, command line or form); `created_at` only in records. */
export const CategoryInputSchema = z.object({
  key: z
    .string()
    .trim()
    .min(1, "give the category a key")
    .max(40, "at most 40 characters")
    .regex(CATEGORY_KEY, "upper-case letters, digits and '_', starting with a letter"),
  name: cleanText(z.string().trim().min(1, "give the category a name").max(100, "at most 100 characters")),
  definition: cleanText(z.string().trim().min(1, "say what the category is").max(2000, "at most 2,000 characters")),
  examples: z
    .array(cleanText(z.string().trim().min(1, "an example is not empty").max(500, "at most 500 characters")))
    .max(MAX_EXAMPLES, `at most ${MAX_EXAMPLES} examples`)
    .default([]),
});
export type CategoryInput = z.infer<typeof CategoryInputSchema>;

export type CategoryDefinition = {
  id: number;
  key: string;
  name: string;
  definition: string;
  examples: string[];
  /** Built-in categories come first, in their own order; the others after them, by key. */
  rank: number;
  createdAt: Date;
  createdBy: string | null;
};

export const categoryOrder = (a: Pick<CategoryDefinition, "rank" | "key">, b: typeof a) =>
  a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export function categoryRecord(c: CategoryDefinition) {
  return {
    type: "category",
    key: c.key,
    name: c.name,
    definition: c.definition,
    examples: c.examples,
    created_at: c.createdAt.toISOString(),
  };
}

/** Whether a version says what another says (a record brought again is not written). */
export const sameCategory = (a: CategoryInput, b: Pick<CategoryDefinition, "name" | "definition" | "examples">) =>
  a.name === b.name && a.definition === b.definition && JSON.stringify(a.examples) === JSON.stringify(b.examples);

/** What a form gives beyond or short of the categories asked, as a sentence; null when it gives exactly them. */
export function categoriesDiffer(
  asked: readonly string[],
  given: Readonly<Record<string, unknown>>,
  evidence: ReadonlyArray<{ category: string | null }> = [],
): string | null {
  const missing = asked.filter((k) => !(k in given));
  const extra = [...Object.keys(given), ...evidence.flatMap((e) => (e.category ? [e.category] : []))].filter(
    (k) => !asked.includes(k),
  );
  const said = [
    missing.length ? `no verdict in ${missing.join(", ")}` : "",
    extra.length ? `${[...new Set(extra)].join(", ")} not asked` : "",
  ].filter(Boolean);
  return said.length ? `this study asks ${asked.join(", ")}: ${said.join("; ")}` : null;
}
