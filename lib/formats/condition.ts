// An agent-format draft as a trajectory record, its condition from the options or a manifest.
import { z } from "zod";
import { hasControl, PG_INT_MAX } from "@/lib/domain/params";
import { type TrajectoryDraft, taskIdFromPath } from "@/lib/formats/agents/common";
import type { FieldError } from "./interchange";
import type { ResolvedLookup } from "./resolved";

export type Condition = {
  benchmark?: string;
  model?: string;
  network?: boolean;
  prompt?: "vanilla" | "principled";
  run?: number;
  task?: string;
};

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const nameField = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((v) => !hasControl(v), { error: `${what} must not hold control characters` })
    .optional();

/** The condition as text fields (command line, Import page), all optional, blank meaning not given. */
export const ConditionFieldsSchema = z.object({
  benchmark: z.preprocess(blankToUndefined, nameField("benchmark")),
  model: z.preprocess(blankToUndefined, nameField("model")),
  network: z
    .preprocess(blankToUndefined, z.enum(["on", "off", "true", "false"], { error: "network is on or off" }).optional())
    .transform((v) => (v === undefined ? undefined : v === "on" || v === "true")),
  prompt: z.preprocess(
    blankToUndefined,
    z.enum(["vanilla", "principled"], { error: "prompt is vanilla or principled" }).optional(),
  ),
  run: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "run is a whole number ≥ 1" })
      .int({ error: "run is a whole number ≥ 1" })
      .min(1, { error: "run is a whole number ≥ 1" })
      .max(PG_INT_MAX, { error: `run is at most ${PG_INT_MAX}` })
      .optional(),
  ),
  task: z.preprocess(blankToUndefined, nameField("task")),
}) satisfies z.ZodType<Condition, unknown>;

const REQUIRED = ["benchmark", "model", "network", "prompt", "run"] as const;

/** Where a condition is given, so an error names what to fill in with the right words. */
export type Asks = "flags" | "fields" | "parameters";

const FLAGS: Record<string, string> = {
  benchmark: "--benchmark B",
  model: "--model M",
  network: "--network on|off",
  prompt: "--prompt vanilla|principled",
  run: "--run N",
  task: "--task ID",
};
const FIELDS: Record<string, string> = {
  benchmark: "Benchmark",
  model: "Model",
  network: "Network",
  prompt: "Prompt",
  run: "Run",
  task: "Task id",
};

/** The option that gives condition field `k`, as the way it is given names it (`--run N`, the Run field, `run=`). */
export function optionName(k: string, asks: Asks = "flags"): string {
  if (asks === "fields") return `the ${FIELDS[k] ?? k} field`;
  if (asks === "parameters") return `the ${k} parameter`;
  return (FLAGS[k] ?? `--${k}`).split(" ")[0]!;
}

/** What to do to give condition field `k`: "give --benchmark B", "fill in the Benchmark field". */
const giveIt = (k: string, asks: Asks = "flags") =>
  asks === "flags"
    ? `give ${FLAGS[k] ?? `--${k}`}`
    : asks === "fields"
      ? `fill in ${optionName(k, asks)}`
      : `give ${optionName(k, asks)}`;

/** The condition fields a file may say itself (Inspect: model and epoch; ATIF: the agent's model). */
const OWN = ["benchmark", "model", "run"] as const;

/** The options over what the file says; `overrides` names each option that replaced a file's value. */
export function draftCondition(
  draft: TrajectoryDraft,
  condition: Condition,
  filePath: string,
): { condition: Condition; own: Record<string, unknown>; overrides: string[] } {
  const own: Record<string, unknown> = {
    task: draft.taskId ?? taskIdFromPath(filePath),
    ...Object.fromEntries(OWN.map((k) => [k, draft.condition?.[k] ?? undefined])),
  };
  const merged: Condition = { ...condition, task: condition.task ?? (own.task as string | null) ?? undefined };
  for (const k of OWN) if (merged[k] === undefined && own[k] != null) Object.assign(merged, { [k]: own[k] });
  const overrides = (["task", ...OWN] as const).filter((k) => condition[k] !== undefined && own[k] != null);
  return { condition: merged, own, overrides };
}

export function draftToRecord(
  draft: TrajectoryDraft,
  condition: Condition,
  resolved: ResolvedLookup | null,
  asks: Asks = "flags",
): { ok: true; value: Record<string, unknown> } | { ok: false; errors: FieldError[] } {
  const manifest = asks === "flags" ? " (or a manifest)" : "";
  const errors: FieldError[] = REQUIRED.filter((k) => condition[k] === undefined).map((k) => ({
    field: k,
    message: `${draft.format} files do not say the ${k}: ${giveIt(k, asks)}${manifest}`,
  }));
  const task = condition.task;
  if (!task)
    errors.push({
      field: "task",
      message:
        `the file does not name its task instance: ${giveIt("task", asks)} ` + "(or name the file after the instance)",
    });
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      type: "trajectory",
      benchmark: condition.benchmark,
      model: condition.model,
      network: condition.network,
      prompt: condition.prompt,
      run: condition.run,
      task: {
        id: task,
        repo: draft.repo ?? null,
        base_commit: draft.baseCommit ?? null,
        language: draft.language ?? null,
      },
      resolved: resolved?.(task!) ?? draft.resolved ?? null,
      patch: draft.patch,
      turns: draft.turns,
      metadata: { ...draft.metadata, source_format: draft.format },
    },
  };
}
