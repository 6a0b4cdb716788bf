// Patch similarity: the Jaccard index of two diffs' changed lines as multisets; null when either is missing.

/** The changed lines of a unified diff, normalized as the definition says, in order. */
export function changedLines(diff: string): string[] {
  const out: string[] = [];
  for (const raw of diff.split(/\r?\n/)) {
    const sign = raw[0];
    if (sign !== "+" && sign !== "-") continue;
    if (raw.startsWith("+++") || raw.startsWith("---")) continue;
    const body = raw.slice(1).trim();
    if (body) out.push(`${sign}${body}`);
  }
  return out;
}

function counts(lines: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) m.set(l, (m.get(l) ?? 0) + 1);
  return m;
}

/** The Jaccard index of two diffs' changed lines as multisets; null when either diff is missing. */
export function patchSimilarity(a: string | null | undefined, b: string | null | undefined): number | null {
  if (a == null || b == null) return null;
  const x = counts(changedLines(a));
  const y = counts(changedLines(b));
  let both = 0;
  let either = 0;
  for (const key of new Set([...x.keys(), ...y.keys()])) {
    const p = x.get(key) ?? 0;
    const q = y.get(key) ?? 0;
    both += Math.min(p, q);
    either += Math.max(p, q);
  }
  // Two diffs that change nothing are the same change.
  return either === 0 ? 1 : both / either;
}
