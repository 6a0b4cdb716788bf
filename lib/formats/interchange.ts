// The app's own records (docs/formats.md, "Records"): trajectories, judge votes, labels, gold labels,
// task records and rules.
// Pure: plain values in, validated records or field-named errors out. Unknown extra fields are
// allowed (other tools may add them) and ignored.

import { z } from "zod";
import type { NaturalKey } from "@/lib/domain/natural-key";
import { hasControl, PG_INT_MAX } from "@/lib/domain/params";
import { RuleInputSchema } from "@/lib/domain/rules";
import type { Turn } from "@/lib/domain/steps";
import { type Category, MADE_WITH, normalizeCategory } from "@/lib/domain/verdicts";
import { boundedList } from "./bounded-list";
import { MAX_NESTING, nestedTooDeep } from "./nesting";
import { looksLikeTaskRecord, type TaskRecord, TaskRecordSchema } from "./task-record";
import { VerdictsSchema } from "./verdicts-schema";

const text = (what: string) => z.string({ error: `${what} must be a string` });
const nonEmpty = (what: string) =>
  text(what)
    .trim()
    .min(1, { error: `${what} must not be empty` });
/**
 * A name the app's lists filter by (a condition's benchmark, model and task, a judge, a person): no
 * control character, which no filter could be given (lib/domain/params.ts) and no page could show.
 */
const name = (what: string) =>
  nonEmpty(what).refine((v) => !hasControl(v), { error: `${what} must not hold control characters` });
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

const promptSchema = z.enum(["vanilla", "principled"], { error: 'prompt must be "vanilla" or "principled"' });
const networkSchema = z.boolean({ error: "network must be true or false" });
const runSchema = z
  .number({ error: "run must be a whole number ≥ 1" })
  .int({ error: "run must be a whole number ≥ 1" })
  .min(1, { error: "run must be a whole number ≥ 1" })
  .max(PG_INT_MAX, { error: `run must be at most ${PG_INT_MAX}` });

const toolCallSchema = z.object({
  id: z.string().nullish(),
  name: nonEmpty("name"),
  input: z.union([z.string(), z.record(z.string(), z.unknown())], { error: "input must be a string or a JSON object" }),
});

const turnSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"], { error: "role must be system, user, assistant or tool" }),
  content: z.string({ error: "content must be a string or null" }).nullish(),
  reasoning: z.string({ error: "reasoning must be a string or null" }).nullish(),
  tool_calls: boundedList(toolCallSchema, "tool_calls must be a list")
    .nullish()
    .transform((v) => v ?? undefined),
  tool_call_id: z.string().nullish(),
  exit_code: z
    .number({ error: "exit_code must be a whole number" })
    .int({ error: "exit_code must be a whole number" })
    .min(-PG_INT_MAX - 1, { error: "exit_code is out of range" })
    .max(PG_INT_MAX, { error: "exit_code is out of range" })
    .nullish(),
}) satisfies z.ZodType<Turn, unknown>;

const taskSchema = z.object(
  {
    id: name("task.id"),
    repo: optionalText,
    base_commit: optionalText,
    language: optionalText,
  },
  { error: "task must be an object with an id" },
);

export const TrajectoryRecordSchema = z.object({
  type: z.literal("trajectory").optional(),
  id: z
    .string()
    .trim()
    .min(1)
    .nullish()
    .transform((v) => v ?? null),
  benchmark: name("benchmark"),
  model: name("model"),
  task: taskSchema,
  network: networkSchema,
  prompt: promptSchema,
  run: runSchema,
  resolved: z
    .boolean({ error: "resolved must be true, false or null" })
    .nullish()
    .transform((v) => v ?? null),
  patch: optionalText,
  turns: boundedList(turnSchema, "turns must be a list of messages"),
  metadata: z
    .record(z.string(), z.unknown(), { error: "metadata must be an object" })
    .nullish()
    .transform((v) => v ?? {}),
});
export type TrajectoryRecord = z.output<typeof TrajectoryRecordSchema>;

export type { NaturalKey };
export { VerdictsSchema };

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
        if (!category) ctx.addIssue({ code: "custom", message: `unknown category "${c}"` });
        return category as Category | null;
      }),
    note: optionalText,
  }),
  "evidence must be a list of {step, category, note}",
)
  .nullish()
  .transform((v) => v ?? []);
export type Evidence = z.output<typeof evidenceSchema>;

const timestampSchema = z.iso
  .datetime({ offset: true, error: "created_at must be an ISO 8601 date-time" })
  .nullish()
  .transform((v) => (v ? new Date(v) : null));

export const JudgeVoteRecordSchema = z
  .object({
    type: z.literal("judge_vote").optional(),
    trajectory: trajectoryRefSchema,
    judge: name("judge"),
    verdicts: VerdictsSchema.nullish().transform((v) => v ?? null),
    rationale: optionalText,
    evidence: evidenceSchema,
    raw: optionalText,
    created_at: timestampSchema,
  })
  .refine((v) => v.verdicts !== null || v.raw !== null, {
    error: "a judge vote needs verdicts or a raw answer",
    path: ["verdicts"],
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

/** A suspect-step rule's version (docs/formats.md, "Rule"); only with its type: its fields are a rule's. */
export const RuleRecordSchema = RuleInputSchema.extend({ type: z.literal("rule"), created_at: timestampSchema });
export type RuleRecord = z.output<typeof RuleRecordSchema>;

export type InterchangeRecord =
  | { type: "trajectory"; record: TrajectoryRecord }
  | { type: "judge_vote"; record: JudgeVoteRecord }
  | { type: "label"; record: LabelRecord }
  | { type: "gold"; record: GoldRecord }
  | { type: "task"; record: TaskRecord }
  | { type: "rule"; record: RuleRecord };

export type FieldError = { field: string | null; message: string };

/** A bad record of a file: its line (JSONL) or record number (JSON array), the field, what is wrong. */
export type RecordError = { line: number; field: string | null; message: string };

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * Which record an object is: its `type`, or else its fields (turns → trajectory, judge → vote,
 * annotator → label, adjudicator → gold label, instance_id with patch → task record).
 */
export function recordType(value: Record<string, unknown>): InterchangeRecord["type"] | null {
  const t = value.type;
  if (t === "trajectory" || t === "judge_vote" || t === "label" || t === "gold" || t === "task" || t === "rule")
    return t;
  if (t !== undefined) return null;
  if ("turns" in value) return "trajectory";
  if ("judge" in value) return "judge_vote";
  if ("annotator" in value) return "label";
  if ("adjudicator" in value) return "gold";
  if (looksLikeTaskRecord(value)) return "task";
  return null;
}

function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ field: i.path.length ? i.path.join(".") : null, message: i.message }));
}

const SCHEMAS = {
  trajectory: TrajectoryRecordSchema,
  judge_vote: JudgeVoteRecordSchema,
  label: LabelRecordSchema,
  gold: GoldRecordSchema,
  task: TaskRecordSchema,
  rule: RuleRecordSchema,
} as const;

export function parseInterchangeRecord(value: unknown): ParseResult<InterchangeRecord> {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return {
      ok: false,
      errors: [
        {
          field: null,
          message:
            `expected a JSON object, got ` +
            `${Array.isArray(value) ? "a list" : value === null ? "null" : typeof value}`,
        },
      ],
    };
  }
  const type = recordType(value as Record<string, unknown>);
  if (!type) {
    const t = (value as Record<string, unknown>).type;
    return {
      ok: false,
      errors: [
        {
          field: t === undefined ? null : "type",
          message:
            t === undefined
              ? "not a trajectory (turns), judge vote (judge), label (annotator), gold label (adjudicator) " +
                "or task record (instance_id, patch)"
              : `unknown type ${JSON.stringify(t)} (expected trajectory, judge_vote, label, gold, task or rule)`,
        },
      ],
    };
  }
  const deep = nestedTooDeep(value, MAX_NESTING);
  if (deep !== null)
    return {
      ok: false,
      errors: [
        {
          field: deep || null,
          message:
            `nested more than ${MAX_NESTING} levels deep (objects and lists within each other); ` +
            "a record may nest at most that far",
        },
      ],
    };
  const parsed = SCHEMAS[type].safeParse(value);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  return { ok: true, value: { type, record: parsed.data } as InterchangeRecord };
}

/**
 * A record as read from a file: its line (or record index) and its parsed JSON value, or the
 * errors that kept it from being read. `bytes` (its size in the file) bounds a batch's memory;
 * `format` names the agent format it was converted from.
 */
export type RawRecord = { line: number; bytes?: number; format?: string } & (
  | { value: unknown }
  | { errors: FieldError[] }
);
