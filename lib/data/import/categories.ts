import "server-only";
// Category records of an import, written as the Judges page writes them.
import { sameCategory } from "@/lib/domain/categories";
import type { CategoryRecord } from "@/lib/formats/interchange";
import { insertCategoryVersion, listCategories } from "../categories";
import type { ImportContext, Located, RecordError } from "./context";

/** Category records; a version without its time that says what the one in force says is not written. */
export async function importCategories(
  ctx: ImportContext,
  items: ReadonlyArray<Located<CategoryRecord>>,
): Promise<RecordError[]> {
  if (!items.length) return [];
  const inForce = new Map((await listCategories(ctx.sql)).map((c) => [c.key, c]));
  for (const { record } of items) {
    const current = inForce.get(record.key);
    if (!record.created_at && current && sameCategory(record, current)) continue;
    await insertCategoryVersion(ctx.sql, null, record, {
      importId: ctx.importId,
      createdAt: record.created_at ?? ctx.now,
    });
  }
  ctx.counts.categories += items.length;
  return [];
}
