// A record's verdicts as written by people and judges: any case, `-`, `_` or spaces alike.
import { z } from "zod";
import {
  CATEGORIES,
  type CategoryVerdicts,
  normalizeCategory,
  normalizeVerdict,
  VERDICTS,
} from "@/lib/domain/verdicts";

/** Four category verdicts; keys and values in any case, with `-`, `_` or spaces alike. */
export const VerdictsSchema = z
  .record(z.string(), z.unknown(), { error: "verdicts must be an object of category → verdict" })
  .transform((obj, ctx): CategoryVerdicts => {
    const out: Partial<CategoryVerdicts> = {};
    for (const [key, value] of Object.entries(obj)) {
      const category = normalizeCategory(key);
      if (!category) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `unknown category "${key}" (expected ${CATEGORIES.join(", ")})`,
        });
        continue;
      }
      const verdict = typeof value === "string" ? normalizeVerdict(value) : null;
      if (!verdict)
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `${JSON.stringify(value)} is not a verdict (expected ${VERDICTS.join(", ")})`,
        });
      else out[category] = verdict;
    }
    const missing = CATEGORIES.filter((c) => !out[c]);
    if (missing.length && !ctx.issues.length)
      ctx.addIssue({ code: "custom", message: `missing ${missing.join(", ")}` });
    return out as CategoryVerdicts;
  });
