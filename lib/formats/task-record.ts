// A SWE-bench-style dataset row as datasets publish it; unused fields kept in `extra`.
import { z } from "zod";

const KNOWN = [
  "type",
  "instance_id",
  "repo",
  "base_commit",
  "patch",
  "test_patch",
  "problem_statement",
  "hints_text",
  "created_at",
  "version",
  "FAIL_TO_PASS",
  "PASS_TO_PASS",
  "environment_setup_commit",
] as const;

const optionalText = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .nullish()
    .transform((v) => v ?? null);

const testList = (what: string) =>
  z
    .union([z.array(z.string()), z.string()], { error: `${what} must be a list of test names` })
    .nullish()
    .transform((v, ctx): string[] | null => {
      if (v == null) return null;
      if (Array.isArray(v)) return v;
      try {
        const parsed: unknown = JSON.parse(v);
        if (Array.isArray(parsed) && parsed.every((x) => typeof x === "string")) return parsed;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: "custom", message: `${what} must be a list of test names, or a JSON string of one` });
      return z.NEVER;
    });

/** ISO 8601 (with or without a zone: UTC when without), or `YYYY-MM-DD HH:MM:SS` as UTC. */
const createdAt = z
  .string({ error: "created_at must be a date-time" })
  .nullish()
  .transform((v, ctx): Date | null => {
    if (v == null || v === "") return null;
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(v.trim());
    const d = m ? new Date(`${m[1]}T${m[2]}${m[3] ?? "Z"}`) : null;
    if (!d || Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: "custom", message: "created_at must be ISO 8601 or YYYY-MM-DD HH:MM:SS" });
      return z.NEVER;
    }
    return d;
  });

export const TaskRecordSchema = z
  .looseObject({
    type: z.literal("task").optional(),
    instance_id: z
      .string({ error: "instance_id must be a string" })
      .trim()
      .min(1, { error: "instance_id must not be empty" }),
    repo: optionalText("repo"),
    base_commit: optionalText("base_commit"),
    patch: z.string({ error: "patch (the reference fix, a unified diff) must be a string" }),
    test_patch: optionalText("test_patch"),
    problem_statement: optionalText("problem_statement"),
    hints_text: optionalText("hints_text"),
    created_at: createdAt,
    version: z
      .union([z.string(), z.number()], { error: "version must be a string or a number" })
      .nullish()
      .transform((v) => (v == null ? null : String(v))),
    FAIL_TO_PASS: testList("FAIL_TO_PASS"),
    PASS_TO_PASS: testList("PASS_TO_PASS"),
    environment_setup_commit: optionalText("environment_setup_commit"),
  })
  .transform((r) => {
    const extra = Object.fromEntries(Object.entries(r).filter(([k]) => !(KNOWN as readonly string[]).includes(k)));
    return {
      instanceId: r.instance_id,
      repo: r.repo,
      baseCommit: r.base_commit,
      patch: r.patch,
      testPatch: r.test_patch,
      problemStatement: r.problem_statement,
      hintsText: r.hints_text,
      createdAt: r.created_at,
      version: r.version,
      failToPass: r.FAIL_TO_PASS,
      passToPass: r.PASS_TO_PASS,
      environmentSetupCommit: r.environment_setup_commit,
      extra,
    };
  });
export type TaskRecord = z.output<typeof TaskRecordSchema>;

/** A task record by its fields: an instance id with a patch (and no turns, judge or annotator). */
export const looksLikeTaskRecord = (value: Record<string, unknown>) => "instance_id" in value && "patch" in value;
