// Votes, labels and gold labels, each naming its trajectory by id or natural key. Pure.
import { z } from "zod";
import type { NaturalKey } from "@/lib/domain/natural-key";
import { PG_INT_MAX } from "@/lib/domain/params";
import { type Category, MADE_WITH, normalizeCategory } from "@/lib/domain/verdicts";
import { boundedList } from "./bounded-list";
import { name, networkSchema, nonEmpty, optionalText, promptSchema, runSchema, timestampSchema } from "./record-fields";
import { ConfidenceSchema, VerdictsSchema } from "./verdicts-schema";

const naturalKeySchema = z.object({
  benchmark: name("trajectory.benchmark"),
  model: name("trajectory.model"),
  task: z.union([name("trajectory.task"), z.object({ id: name("trajectory.task.id") }).transform((t) => t.id)]),
  network: networkSchema,
  prompt: promptSchema,
  run: runSchema,
});

/** A reference to a trajectory: by its `id`, or by its natural key. */
export type TrajectoryRef = { id: string } | { key: NaturalKey };

const trajectoryRefSchema = z.union(
  [
    z.object({ id: nonEmpty("trajectory.id") }).transform((r): TrajectoryRef => ({ id: r.id })),
    naturalKeySchema.transform((key): TrajectoryRef => ({ key })),
  ],
  { error: "trajectory must name an id, or benchmark, model, task, network, prompt and run" },
);

const evidenceSchema = boundedList(
  z.object({
    step: z
      .number({ error: "step must be a whole number ≥ 0" })
      .int()
      .min(0, { error: "step must be a whole number ≥ 0" })
      .max(PG_INT_MAX, { error: `step must be at most ${PG_INT_MAX}` }),
    category: z
      .string()
      .nullish()
      .transform((c, ctx) => {
        if (c == null) return null;
        const category = normalizeCategory(c);
        if (!category) ctx.addIssue({ code: "custom", message: `"${c.slice(0, 40)}" is not a category key` });
        return category as Category | null;
      }),
    note: optionalText,
  }),
  "evidence must be a list of {step, category, note}",
)
  .nullish()
  .transform((v) => v ?? []);
export type Evidence = z.output<typeof evidenceSchema>;

export const JudgeVoteRecordSchema = z
  .object({
    type: z.literal("judge_vote").optional(),
    trajectory: trajectoryRefSchema,
    judge: name("judge"),
    verdicts: VerdictsSchema.nullish().transform((v) => v ?? null),
    confidence: ConfidenceSchema.nullish().transform((c) => (c && Object.keys(c).length ? c : null)),
    rationale: optionalText,
    evidence: evidenceSchema,
    raw: optionalText,
    created_at: timestampSchema,
  })
  .refine((v) => v.verdicts !== null || v.raw !== null, {
    error: "a judge vote needs verdicts or a raw answer",
    path: ["verdicts"],
  })
  .refine((v) => !v.confidence || !v.verdicts || Object.keys(v.confidence).every((k) => k in v.verdicts!), {
    error: "confidence names a category the vote gives no verdict in",
    path: ["confidence"],
  });
export type JudgeVoteRecord = z.output<typeof JudgeVoteRecordSchema>;

/** What a person's verdict on a trajectory carries: a label's, or a gold label's. */
const personVerdictFields = {
  trajectory: trajectoryRefSchema,
  verdicts: VerdictsSchema,
  evidence: evidenceSchema,
  note: optionalText,
  created_at: timestampSchema,
  /** How it was made where it was (an export says); absent: by this import. */
  made_with: z.enum(MADE_WITH, { error: 'made_with must be "form", "import" or "api"' }).nullish(),
};

export const LabelRecordSchema = z.object({
  type: z.literal("label").optional(),
  annotator: name("annotator"),
  ...personVerdictFields,
});
export type LabelRecord = z.output<typeof LabelRecordSchema>;

export const GoldRecordSchema = z.object({
  type: z.literal("gold").optional(),
  adjudicator: name("adjudicator"),
  ...personVerdictFields,
});
export type GoldRecord = z.output<typeof GoldRecordSchema>;
