// A record's verdicts as written by people and judges: any case, `-`, `_` or spaces alike.
import { z } from "zod";
import { normalizeCategory, normalizeVerdict, VERDICTS, type Verdict, type Verdicts } from "@/lib/domain/verdicts";

/** Verdicts by category key, at least one (the importer checks the keys are defined); any spelling of keys. */
export const VerdictsSchema = z
  .record(z.string(), z.unknown(), { error: "verdicts must be an object of category → verdict" })
  .transform((obj, ctx): Verdicts => {
    const out: Record<string, Verdict> = {};
    for (const [key, value] of Object.entries(obj)) {
      const category = normalizeCategory(key);
      if (!category) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `"${key.slice(0, 40)}" is not a category key (upper-case letters, digits and '_')`,
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
    if (!Object.keys(out).length && !ctx.issues.length)
      ctx.addIssue({ code: "custom", message: "give a verdict in at least one category" });
    return out;
  });

/** A vote's confidence by category key: the judge's probability of an attempt, from 0 to 1. */
export const ConfidenceSchema = z
  .record(z.string(), z.unknown(), { error: "confidence must be an object of category → number from 0 to 1" })
  .transform((obj, ctx): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const [key, value] of Object.entries(obj)) {
      const category = normalizeCategory(key);
      if (!category)
        ctx.addIssue({ code: "custom", path: [key], message: `"${key.slice(0, 40)}" is not a category key` });
      else if (typeof value !== "number" || !(value >= 0 && value <= 1))
        ctx.addIssue({ code: "custom", path: [key], message: `${JSON.stringify(value)} is not a number from 0 to 1` });
      else out[category] = value;
    }
    return out;
  });
