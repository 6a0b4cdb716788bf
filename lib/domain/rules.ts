// Suspect-step rules as data: a mark points, it does not judge (protocol §1); this module checks their shape.
import { z } from "zod";
import { CATEGORY_KEY } from "./categories";
import { cleanText } from "./params";

export const RULE_ON = ["command", "output", "reasoning"] as const;
export type RuleOn = (typeof RULE_ON)[number];

/** What a rule reads: the tool call's input, the output answering it, or the assistant's words. */
export const RULE_ON_LABELS: Record<RuleOn, string> = {
  command: "command",
  output: "output",
  reasoning: "reasoning and text",
};

/** How long a scan of the study by a rule may run before the database stops it (a minute). */
export const SCAN_TIMEOUT_MS = 60_000;

/** The longest pattern accepted: a rule is a line a researcher reads, not a program. */
export const MAX_PATTERN = 2000;

/** A rule as written (record, command line or form); `created_at` only in records. */
export const RuleInputSchema = z.object({
  name: cleanText(
    z
      .string()
      .trim()
      .min(1, "give the rule a name")
      .max(100, "at most 100 characters")
      .regex(/^[A-Za-z0-9][\w.-]*$/, "letters, digits, '.', '_' and '-', starting with a letter or digit"),
  ),
  category: z.string().trim().regex(CATEGORY_KEY, "a category's key, as `categories list` shows them"),
  on: z.enum(RULE_ON, { message: `one of ${RULE_ON.join(", ")}` }),
  pattern: cleanText(z.string().min(1, "give a pattern").max(MAX_PATTERN, `at most ${MAX_PATTERN} characters`)),
  ignore_case: z.boolean().default(false),
  why: cleanText(z.string().trim().max(500, "at most 500 characters")).default(""),
  enabled: z.boolean().default(true),
});
export type RuleInput = z.infer<typeof RuleInputSchema>;

/** A stored version of a rule. */
export type Rule = {
  id: number;
  name: string;
  category: string;
  on: RuleOn;
  pattern: string;
  ignoreCase: boolean;
  why: string;
  enabled: boolean;
  createdAt: Date;
  createdBy: string | null;
  /** Why the scan stopped reading this version for good (it ran past its limit), or null. */
  stopped: string | null;
};

/** A rule as its record (`export rules`, docs/formats.md "Rule"). */
export function ruleRecord(r: Rule) {
  return {
    type: "rule",
    name: r.name,
    category: r.category,
    on: r.on,
    pattern: r.pattern,
    ignore_case: r.ignoreCase,
    why: r.why,
    enabled: r.enabled,
    created_at: r.createdAt.toISOString(),
  };
}

/** A mark on a step: the rule that hit it, its category and why. */
export type SuspectMark = { rule: string; category: string; why: string };

/** The first back-reference (`\\1`…`\\9` outside brackets), or null; none in a literal (`***=`) pattern. */
export function backReference(pattern: string): string | null {
  if (pattern.startsWith("***=")) return null;
  let inBracket = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      if (!inBracket && /[1-9]/.test(pattern[i + 1] ?? "")) return pattern.slice(i, i + 2);
      i += 1;
    } else if (c === "[" && !inBracket) inBracket = true;
    else if (c === "]" && inBracket) inBracket = false;
  }
  return null;
}
