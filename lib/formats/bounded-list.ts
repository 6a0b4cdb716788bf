// A list checked element by element keeping only the first problems (zod's issues once outgrew the memory).
import { z } from "zod";

/** Bad elements a list names with their problems; past them, the list is not checked further. */
export const MAX_LIST_ISSUES = 20;

/** A list of `element`s, its problems kept to the first MAX_LIST_ISSUES bad elements' (`what`: the list's error). */
export function boundedList<T extends z.ZodType>(element: T, what: string) {
  return z.array(z.unknown(), { error: what }).transform((items, ctx) => {
    const out: Array<z.output<T>> = [];
    let bad = 0;
    for (let i = 0; i < items.length; i++) {
      const r = element.safeParse(items[i]);
      if (r.success) {
        out.push(r.data);
        continue;
      }
      bad += 1;
      for (const issue of r.error.issues)
        ctx.addIssue({ code: "custom", message: issue.message, path: [i, ...issue.path] });
      // The record is refused already: the rest is not checked (978,000 bad turns took 6 s to check).
      if (bad === MAX_LIST_ISSUES && i + 1 < items.length) {
        ctx.addIssue({
          code: "custom",
          message: `… and the ${items.length - i - 1} elements after these were not checked`,
        });
        break;
      }
    }
    return out;
  });
}
