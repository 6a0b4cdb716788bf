// The data's versions as one key (decision 31); no "server-only": the page cache in front of Next reads it.
/** How the key is read: a statement of lib/data/sql.ts, or the page cache's own connection. */
export type VersionQuery = (text: string, kinds: readonly string[]) => Promise<Array<{ key: string | null }>>;

/** The key of the kinds in the text[] parameter `param` ("$1"), as a scalar subquery. */
export const versionsOf = (param: string) =>
  `(SELECT string_agg(kind || ':' || n, ',' ORDER BY kind) FROM data_version WHERE kind = ANY(${param}::text[]))`;

const VERSIONS_SQL = `SELECT ${versionsOf("$1")} AS key`;

/** "kind:n,…" for `kinds`, in the order of their names. */
export async function versionKey(kinds: readonly string[], query: VersionQuery): Promise<string> {
  const [row] = await query(VERSIONS_SQL, kinds);
  return row?.key ?? "";
}

/** The kinds of data a version is kept for (the triggers of prisma/sql bump them at commit). */
export const DATA_KINDS = [
  "trajectories",
  "votes",
  "labels",
  "gold",
  "studies",
  "reports",
  "people",
  "rules",
  "rule_hits",
] as const;
export type Kind = (typeof DATA_KINDS)[number];
