// How deep a record may nest, checked before its schema walks it.

/** How deep a record may nest: agents use a few dozen levels, PostgreSQL's JSON stack a few thousand. */
export const MAX_NESTING = 200;

/** A container being walked: its keys (null: a list, walked by index), the next to read, how it was reached. */
type Frame = { v: object; keys: string[] | null; next: number; key: string };

const frameOf = (v: object, key: string): Frame => ({
  v,
  keys: Array.isArray(v) ? null : Object.keys(v),
  next: 0,
  key,
});

/** Where a value first nests past `max` (its field path), or null; walked with its own stack, copying nothing. */
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
