import "server-only";
// The study's exploit categories: every version kept, the newest of each key in force.
import { type Actor, assertCan } from "@/lib/auth/permissions";
import {
  type CategoryDefinition,
  type CategoryInput,
  CategoryInputSchema,
  sameCategory,
} from "@/lib/domain/categories";
import { parsedOrRefused } from "@/lib/errors";
import type { RecordError } from "@/lib/formats/interchange";
import { PANEL_IN_FORCE } from "./derived";
import { type Sql, transaction } from "./sql";

const COLUMNS = `c.id, c.key, c.name, c.definition, c.examples, c.rank, c."createdAt", u.handle AS "createdBy"`;
const toCategory = (c: CategoryDefinition): CategoryDefinition => ({ ...c, createdAt: new Date(c.createdAt) });

/** Each key's newest version, as a subquery. */
export const CATEGORY_IN_FORCE = `(SELECT DISTINCT ON (key) * FROM category ORDER BY key, "createdAt" DESC, id DESC)`;

export async function listCategories(sql: Sql): Promise<CategoryDefinition[]> {
  const rows = await sql.query<CategoryDefinition>(
    `SELECT ${COLUMNS} FROM ${CATEGORY_IN_FORCE} c
       LEFT JOIN "user" u ON u.id = c."createdById" ORDER BY c.rank, c.key`,
  );
  return rows.map(toCategory);
}

export const categoriesNow = (): Promise<CategoryDefinition[]> => transaction(listCategories);

export async function categoryNames(): Promise<Record<string, string>> {
  return Object.fromEntries((await categoriesNow()).map((c) => [c.key, c.name]));
}

/** These categories with their names, in the order given (a key no longer defined keeps its key as name). */
export async function namedCategories(keys: readonly string[]): Promise<Array<{ key: string; name: string }>> {
  const names = await categoryNames();
  return keys.map((key) => ({ key, name: names[key] ?? key }));
}

/** The categories some of these verdict maps give (or `also` names), in the categories' order, named. */
export async function categoriesGiven(
  maps: ReadonlyArray<object>,
  also: readonly string[] = [],
): Promise<Array<{ key: string; name: string }>> {
  const keys = new Set([...also, ...maps.flatMap((m) => Object.keys(m))]);
  const inForce = await categoriesNow();
  const known = inForce.filter((c) => keys.has(c.key)).map((c) => ({ key: c.key, name: c.name }));
  const rest = [...keys].filter((k) => !inForce.some((c) => c.key === k)).sort();
  return [...known, ...rest.map((key) => ({ key, name: key }))];
}

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
    const counts = await sql.query<{ key: string; votes: number; labels: number; gold: number }>(
      `SELECT key, count(*) FILTER (WHERE kind = 'v')::int AS votes, count(*) FILTER (WHERE kind = 'l')::int AS labels,
              count(*) FILTER (WHERE kind = 'g')::int AS gold
         FROM (SELECT 'v' AS kind, verdicts FROM judge_vote UNION ALL SELECT 'l', verdicts FROM label
               UNION ALL SELECT 'g', verdicts FROM gold_label) r, jsonb_object_keys(r.verdicts) key
        GROUP BY key`,
    );
    const by = new Map(counts.map((c) => [c.key, c]));
    return (await listCategories(sql)).map((c) => ({
      ...c,
      votes: by.get(c.key)?.votes ?? 0,
      labels: by.get(c.key)?.labels ?? 0,
      gold: by.get(c.key)?.gold ?? 0,
    }));
  });
}

/** The categories built in (protocol §1), in their order: what an imported answer and a new prompt are asked. */
export async function builtInKeys(sql: Pick<Sql, "query">): Promise<string[]> {
  const rows = await sql.query<{ key: string }>(
    `SELECT DISTINCT ON (rank, key) key FROM category WHERE rank < 1000 ORDER BY rank, key`,
  );
  return rows.map((r) => r.key);
}

/** The categories the panel in force asks: its members' prompt versions', else those its counted votes give. */
export async function panelCategories(sql: Pick<Sql, "query">): Promise<string[]> {
  const [row] = await sql.query<{ asked: string[] | null; given: string[] }>(
    `SELECT (SELECT p.categories FROM panel_member m JOIN judge_prompt p ON p.version = m."promptVersion"
              WHERE m."panelId" = ${PANEL_IN_FORCE} AND cardinality(p.categories) > 0
              ORDER BY m."promptVersion" LIMIT 1) AS asked,
       ARRAY(SELECT k.key FROM (SELECT DISTINCT jsonb_object_keys(verdicts) AS key FROM judge_vote WHERE counted) k
               LEFT JOIN (SELECT key, min(rank) AS rank FROM category GROUP BY key) c ON c.key = k.key
              ORDER BY coalesce(c.rank, 1000), k.key) AS given`,
  );
  if (row?.asked) return row.asked;
  return row?.given.length ? row.given : builtInKeys(sql);
}

export async function undefinedCategories(sql: Pick<Sql, "query">, keys: readonly string[]): Promise<string[]> {
  const rows = await sql.query<{ key: string }>(
    `SELECT k AS key FROM unnest($1::text[]) k WHERE NOT EXISTS (SELECT 1 FROM category c WHERE c.key = k)`,
    [[...new Set(keys)]],
  );
  return rows.map((r) => r.key);
}
export const unknownCategory = (key: string) => `no category ${key.slice(0, 40)} (categories list shows them)`;

/** A record naming a category that is not defined: its error, with its line and the key. */
export async function categoryErrors(
  sql: Pick<Sql, "query">,
  items: ReadonlyArray<{ line: number; keys: readonly string[] }>,
): Promise<RecordError[]> {
  const unknown = new Set(
    await undefinedCategories(
      sql,
      items.flatMap((i) => i.keys),
    ),
  );
  return items.flatMap((i) => {
    const key = i.keys.find((k) => unknown.has(k));
    return key ? [{ line: i.line, field: "verdicts", message: `verdicts: ${unknownCategory(key)}` }] : [];
  });
}

/** The keys a record names: its verdicts' and its cited steps'. */
export const recordKeys = (r: { verdicts?: object | null; evidence?: ReadonlyArray<{ category: string | null }> }) => [
  ...Object.keys(r.verdicts ?? {}),
  ...(r.evidence ?? []).flatMap((e) => (e.category ? [e.category] : [])),
];

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
