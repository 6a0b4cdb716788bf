import "server-only";
// Rule records of an import, written as the Rules page writes them.
import type { Rule } from "@/lib/domain/rules";
import type { RuleRecord } from "@/lib/formats/interchange";
import { undefinedCategories, unknownCategory } from "../categories";
import { patternProblem } from "../rule-patterns";
import { insertRuleVersion, listRules } from "../rules";
import type { ImportContext, Located, RecordError } from "./context";

/** Rule records, all or none, each pattern compiled; a version that changes nothing is not written. */
export async function importRules(
  ctx: ImportContext,
  items: ReadonlyArray<Located<RuleRecord>>,
): Promise<RecordError[]> {
  if (!items.length) return [];
  const errors: RecordError[] = [];
  const unknown = new Set(
    await undefinedCategories(
      ctx.sql,
      items.map((i) => i.record.category),
    ),
  );
  for (const { line, record } of items) {
    if (unknown.has(record.category))
      errors.push({ line, field: "category", message: `category: ${unknownCategory(record.category)}` });
    const problem = await patternProblem(ctx.sql, record.pattern, record.ignore_case);
    if (problem) errors.push({ line, field: "pattern", message: `pattern: ${problem}` });
  }
  if (errors.length) return errors;
  // A version without its time that says what the version in force says is that one brought again.
  const inForce = new Map((await listRules(ctx.sql)).map((r) => [r.name, r]));
  const same = (r: RuleRecord, v: Rule | undefined) =>
    v !== undefined &&
    [r.category, r.on, r.pattern, r.ignore_case, r.why, r.enabled].join("\u0000") ===
      [v.category, v.on, v.pattern, v.ignoreCase, v.why, v.enabled].join("\u0000");
  const written = items.filter(({ record }) => record.created_at || !same(record, inForce.get(record.name)));
  for (const { record } of written)
    await insertRuleVersion(ctx.sql, null, record, { importId: ctx.importId, createdAt: record.created_at ?? ctx.now });
  ctx.counts.rules += items.length;
  return [];
}
