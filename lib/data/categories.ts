import "server-only";
// The study's exploit categories: every version kept, the newest of each key in force.
import { type Actor, assertCan } from "@/lib/auth/permissions";
import {
  type CategoryDefinition,
  type CategoryInput,
  CategoryInputSchema,
  sameCategory,
} from "@/lib/domain/categories";
import { CATEGORY_FIELDS } from "@/lib/domain/verdicts";
import { parsedOrRefused } from "@/lib/errors";
import { type Sql, transaction } from "./sql";

const COLUMNS = `c.id, c.key, c.name, c.definition, c.examples, c.rank, c."createdAt", u.handle AS "createdBy"`;
const toCategory = (c: CategoryDefinition): CategoryDefinition => ({ ...c, createdAt: new Date(c.createdAt) });

export async function listCategories(sql: Sql): Promise<CategoryDefinition[]> {
  const rows = await sql.query<CategoryDefinition>(
    `SELECT ${COLUMNS} FROM (SELECT DISTINCT ON (key) * FROM category ORDER BY key, "createdAt" DESC, id DESC) c
       LEFT JOIN "user" u ON u.id = c."createdById" ORDER BY c.rank, c.key`,
  );
  return rows.map(toCategory);
}

export const categoriesNow = (): Promise<CategoryDefinition[]> => transaction(listCategories);

/** Every version of every category (`export categories`), by key, oldest first. */
export async function categoryVersions(sql: Sql, key?: string): Promise<CategoryDefinition[]> {
  const rows = await sql.query<CategoryDefinition>(
    `SELECT ${COLUMNS} FROM category c LEFT JOIN "user" u ON u.id = c."createdById"
      ${key === undefined ? "" : "WHERE c.key = $1"} ORDER BY c.rank, c.key, c."createdAt", c.id`,
    key === undefined ? [] : [key],
  );
  return rows.map(toCategory);
}

export type CategoryUse = CategoryDefinition & { votes: number; labels: number; gold: number };

/** The categories in force with how many votes, labels and gold labels give each a verdict. */
export async function categoriesInUse(): Promise<CategoryUse[]> {
  return transaction(async (sql) => {
    const [counts] = await sql.query<{ votes: number; labels: number; gold: number }>(
      `SELECT (SELECT count(*)::int FROM judge_vote) AS votes, (SELECT count(*)::int FROM label) AS labels,
              (SELECT count(*)::int FROM gold_label) AS gold`,
    );
    // Votes, labels and gold labels give a verdict in each column-stored category, none in the others.
    return (await listCategories(sql)).map((c) =>
      c.key in CATEGORY_FIELDS ? { ...c, ...counts! } : { ...c, votes: 0, labels: 0, gold: 0 },
    );
  });
}

export const parseCategory = (input: unknown): CategoryInput => parsedOrRefused(CategoryInputSchema, input, "category");

/** A version row: at `createdAt` (replacing one of that key and time), or just after the key's newest. */
export async function insertCategoryVersion(
  sql: Sql,
  actor: Actor | null,
  c: CategoryInput,
  opts: { importId?: number | null; createdAt?: Date } = {},
): Promise<void> {
  await sql.query(
    `INSERT INTO category (key, name, definition, examples, "createdById", "importId", "createdAt", rank)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6,
       coalesce($7::timestamp, greatest(clock_timestamp()::timestamp,
         (SELECT max("createdAt") + interval '1 millisecond' FROM category WHERE key = $1))),
       coalesce((SELECT min(rank) FROM category WHERE key = $1), 1000))
     ON CONFLICT (key, "createdAt") DO UPDATE SET name = EXCLUDED.name, definition = EXCLUDED.definition,
       examples = EXCLUDED.examples, "importId" = EXCLUDED."importId"
       WHERE (category.name, category.definition, category.examples) IS DISTINCT FROM
             (EXCLUDED.name, EXCLUDED.definition, EXCLUDED.examples)`,
    [
      c.key,
      c.name,
      c.definition,
      JSON.stringify(c.examples),
      actor?.id ?? null,
      opts.importId ?? null,
      opts.createdAt?.toISOString() ?? null,
    ],
  );
}

/** Writes a new version of a category unless it says what the one in force says (actor null: the command line). */
export async function writeCategory(
  actor: Actor | null,
  input: unknown,
): Promise<{ category: CategoryDefinition; written: boolean }> {
  if (actor) assertCan(actor, "judges:write");
  const category = parseCategory(input);
  return transaction(async (sql) => {
    const current = (await listCategories(sql)).find((c) => c.key === category.key);
    if (current && sameCategory(category, current)) return { category: current, written: false };
    await insertCategoryVersion(sql, actor, category);
    return { category: (await listCategories(sql)).find((c) => c.key === category.key)!, written: true };
  });
}
