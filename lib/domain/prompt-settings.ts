// How a prompt version asks its judges (part of the version, so a variant is a candidate panel). Pure.
import { z } from "zod";

/** off: one trajectory a request; model: the runs of one task by one model, every condition; all: every model's. */
export const COHORTS = ["off", "model", "all"] as const;
export type Cohort = (typeof COHORTS)[number];

export const MAX_COHORT = 12;

export const PromptSettingsSchema = z.object({
  reasoning: z.boolean().default(true),
  /** Outputs longer than this are cut in the middle (null: only as the judge's budget requires). */
  outputChars: z.number().int().min(200).max(10_000_000).nullable().default(null),
  cohort: z.enum(COHORTS).default("off"),
});
export type PromptSettings = z.output<typeof PromptSettingsSchema>;

export const DEFAULT_SETTINGS: PromptSettings = PromptSettingsSchema.parse({});

export const storedSettings = (v: unknown): PromptSettings => {
  const parsed = PromptSettingsSchema.safeParse(v ?? {});
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
};

export const sameSettings = (a: PromptSettings, b: PromptSettings) =>
  a.reasoning === b.reasoning && a.outputChars === b.outputChars && a.cohort === b.cohort;

const COHORT_WORDS: Record<Cohort, string> = {
  off: "one trajectory a request",
  model: "the runs of one task by one model (every condition) in one request",
  all: "the runs of one task by every model in one request",
};

/** The settings in words, for the Judges page and the votes that say how they were asked. */
export function settingsText(s: PromptSettings): string {
  return [
    s.reasoning ? "with the agent's reasoning" : "without the agent's reasoning",
    s.outputChars === null
      ? "outputs cut only to fit"
      : `outputs cut to ${s.outputChars.toLocaleString("en-US")} characters`,
    COHORT_WORDS[s.cohort],
  ].join("; ");
}

/** The form's fields (a checkbox, a number or blank, a choice) as settings, or the field at fault. */
export function settingsFromForm(
  get: (name: string) => string | null,
): PromptSettings | { field: string; error: string } {
  const chars = get("outputChars")?.trim() ?? "";
  const parsed = PromptSettingsSchema.safeParse({
    reasoning: get("reasoning") === "on",
    outputChars: chars === "" ? null : Number(chars),
    cohort: get("cohort") ?? "off",
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "settings");
  return {
    field,
    error: field === "outputChars" ? "a whole number of characters from 200, or blank" : issue.message,
  };
}
