// How deep a record may nest, checked before a record's schema walks it (parseInterchangeRecord), so
// that no input the limits admit can exhaust the stack of what walks it.

/**
 * How deep a record may nest: agent files nest a few dozen levels; PostgreSQL stores JSON of a few
 * thousand levels at most (its stack), and the schemas walk values recursively.
 */
export const MAX_NESTING = 200;

/**
 * Where a value first nests deeper than `max` levels (the field path of the first value beyond it,
 * "" for the record itself), or null. Walked with a stack of its own, so any depth is safe to check.
 */
export function nestedTooDeep(value: unknown, max: number): string | null {
  const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: value, depth: 0, path: "" }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) return depth > 3 ? `${path}…` : path;
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [k, x] of entries)
      if (x !== null && typeof x === "object")
        // The path names the first levels, enough to find the field.
        stack.push({ v: x, depth: depth + 1, path: depth >= 3 ? path : path ? `${path}.${k}` : k });
  }
  return null;
}
