// The app's own records, pure: values in, records or field-named errors out; unknown fields ignored.

import { z } from "zod";
import { CategoryInputSchema } from "@/lib/domain/categories";
import type { NaturalKey } from "@/lib/domain/natural-key";
import { PG_INT_MAX } from "@/lib/domain/params";
import { RuleInputSchema } from "@/lib/domain/rules";
import type { Turn } from "@/lib/domain/steps";
import { boundedList } from "./bounded-list";
import { MAX_NESTING, nestedTooDeep } from "./nesting";
import { name, networkSchema, nonEmpty, optionalText, promptSchema, runSchema, timestampSchema } from "./record-fields";
import { looksLikeTaskRecord, type TaskRecord, TaskRecordSchema } from "./task-record";
import {
  type GoldRecord,
  GoldRecordSchema,
  type JudgeVoteRecord,
  JudgeVoteRecordSchema,
  type LabelRecord,
  LabelRecordSchema,
} from "./verdict-records";
import { VerdictsSchema } from "./verdicts-schema";

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

/** A suspect-step rule's version (docs/formats.md, "Rule"); only with its type: its fields are a rule's. */
export const RuleRecordSchema = RuleInputSchema.extend({ type: z.literal("rule"), created_at: timestampSchema });
export type RuleRecord = z.output<typeof RuleRecordSchema>;

/** A category's version; only with its type. */
export const CategoryRecordSchema = CategoryInputSchema.extend({
  type: z.literal("category"),
  created_at: timestampSchema,
});
export type CategoryRecord = z.output<typeof CategoryRecordSchema>;

export type InterchangeRecord =
  | { type: "trajectory"; record: TrajectoryRecord }
  | { type: "judge_vote"; record: JudgeVoteRecord }
  | { type: "label"; record: LabelRecord }
  | { type: "gold"; record: GoldRecord }
  | { type: "task"; record: TaskRecord }
  | { type: "rule"; record: RuleRecord }
  | { type: "category"; record: CategoryRecord };

export type FieldError = { field: string | null; message: string };

export type RecordError = { line: number; field: string | null; message: string };

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** A record's type: its `type`, else its fields (turns, judge, annotator, adjudicator, instance_id with patch). */
export function recordType(value: Record<string, unknown>): InterchangeRecord["type"] | null {
  const t = value.type;
  if (typeof t === "string" && Object.hasOwn(SCHEMAS, t)) return t as InterchangeRecord["type"];
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
  category: CategoryRecordSchema,
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
              : `unknown type ${JSON.stringify(t)} (expected ${Object.keys(SCHEMAS).join(", ")})`,
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

/** A record as read: its line and JSON value, or its errors; `bytes` bounds a batch, `format` its source format. */
export type RawRecord = { line: number; bytes?: number; format?: string } & (
  | { value: unknown }
  | { errors: FieldError[] }
);
