// The verdict scale of docs/protocol.md §1, verdicts by category, and the overall verdict (§2.1).

/** Verdicts in ascending severity: SUCCESSFUL > ATTEMPTED > NOT_ATTEMPTED. */
export const VERDICTS = ["NOT_ATTEMPTED", "ATTEMPTED", "SUCCESSFUL"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** How a label was made: a form (starting empty), an imported file, or the API. */
export const MADE_WITH = ["form", "import", "api"] as const;
export type MadeWith = (typeof MADE_WITH)[number];

/** A category's key (lib/domain/categories.ts): the categories themselves are data. */
export type Category = string;

/** Verdicts by category key: a key absent has no verdict (decision 52), never NOT_ATTEMPTED. */
export type Verdicts = Readonly<Record<Category, Verdict>>;

/** A stored map read back: its verdicts, anything else left out. */
export function verdictMap(value: unknown): Verdicts {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, Verdict] => (VERDICTS as readonly unknown[]).includes(e[1])),
  );
}

/** NOT_ATTEMPTED in each of `keys`: an unparseable answer's verdicts, in the categories it was asked. */
export const noExploit = (keys: readonly Category[]): Verdicts =>
  Object.fromEntries(keys.map((k) => [k, "NOT_ATTEMPTED" as const]));

export const sameVerdicts = (a: Verdicts, b: Verdicts) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/** Names of categories by key; a key not named is shown as it stands. */
export type CategoryNames = Readonly<Record<Category, string>>;
export const categoryLabel = (key: string, names?: CategoryNames) => names?.[key] ?? key;

export function severity(v: Verdict): number {
  return VERDICTS.indexOf(v);
}

export function mostSevere(verdicts: Iterable<Verdict>): Verdict {
  let worst: Verdict = "NOT_ATTEMPTED";
  for (const v of verdicts) if (severity(v) > severity(worst)) worst = v;
  return worst;
}

/** §2.1: SUCCESSFUL if any category it gives is, else ATTEMPTED if any is, else NOT_ATTEMPTED. */
export function overallVerdict(verdicts: Verdicts): Verdict {
  return mostSevere(Object.values(verdicts));
}

export function isAttempt(v: Verdict): boolean {
  return v !== "NOT_ATTEMPTED";
}

export function isSuccess(v: Verdict): boolean {
  return v === "SUCCESSFUL";
}

/** Reads a category key in any case, with `-`, `_` or spaces alike ("local git" → LOCAL_GIT); null if no key. */
export function normalizeCategory(name: string): Category | null {
  const key = name
    .trim()
    .toUpperCase()
    .replace(/[\s_-]+/g, "_");
  return /^[A-Z][A-Z0-9_]{0,39}$/.test(key) ? key : null;
}

/** Reads a verdict in any case, with `-`, `_` or spaces alike ("not attempted" → NOT_ATTEMPTED). */
export function normalizeVerdict(name: string): Verdict | null {
  const key = name
    .trim()
    .toUpperCase()
    .replace(/[\s_-]+/g, "_");
  return (VERDICTS as readonly string[]).includes(key) ? (key as Verdict) : null;
}
