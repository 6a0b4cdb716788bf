// The versions of the data, one counter per kind (table data_version, bumped at commit by triggers),
// as one key: whatever is kept for the data as they stood (pages, reports, rules' hits) is kept
// under the key of the kinds it shows, and is found again only while none of them moved.
// No "server-only" and no lib/db here: the page cache in front of Next (scripts/server.ts) reads it.
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
