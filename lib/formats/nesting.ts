// How deep a record may nest, checked before a record's schema walks it (parseInterchangeRecord), so
// that no input the limits admit can exhaust the stack of what walks it.

/**
 * How deep a record may nest: agent files nest a few dozen levels; PostgreSQL stores JSON of a few
 * thousand levels at most (its stack), and the schemas walk values recursively.
 */
export const MAX_NESTING = 200;

/** A container being walked: its keys (null: a list, walked by index), the next to read, how it was reached. */
type Frame = { v: object; keys: string[] | null; next: number; key: string };

const frameOf = (v: object, key: string): Frame => ({
  v,
  keys: Array.isArray(v) ? null : Object.keys(v),
  next: 0,
  key,
});

/**
 * Where a value first nests deeper than `max` levels (the field path of the first value beyond it,
 * "" for the record itself), or null. Walked with a stack of its own, so any depth is safe to check,
 * holding only the containers on the way down: a list of a million elements is read one at a time,
 * never copied.
 */
export function nestedTooDeep(value: unknown, max: number): string | null {
  if (value === null || typeof value !== "object") return null;
  if (max <= 0) return "";
  const frames: Frame[] = [frameOf(value, "")];
  while (frames.length) {
    const f = frames.at(-1)!;
    const size = f.keys ? f.keys.length : (f.v as unknown[]).length;
    if (f.next >= size) {
      frames.pop();
      continue;
    }
    const key = f.keys ? f.keys[f.next]! : String(f.next);
    const x = (f.v as Record<string, unknown>)[key];
    f.next += 1;
    if (x === null || typeof x !== "object") continue;
    // x is at the depth of the frames above it; the path names its first levels, enough to find the field.
    const depth = frames.length;
    if (depth >= max) {
      const path = [...frames.slice(1).map((g) => g.key), key].slice(0, 3).join(".");
      return depth > 3 ? `${path}…` : path;
    }
    frames.push(frameOf(x, key));
  }
  return null;
}
