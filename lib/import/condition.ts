// Turns an agent-format draft into an interchange trajectory record: the condition comes from the
// command line or a manifest (these files do not say it), the task id from the file or --task, and
// the resolved status from --resolved files. The result is validated like any imported record.
import type { FieldError } from "./interchange";
import { taskIdFromPath, type TrajectoryDraft } from "./formats/common";
import type { ResolvedLookup } from "./resolved";

export type Condition = {
  benchmark?: string;
  model?: string;
  network?: boolean;
  prompt?: "vanilla" | "principled";
  run?: number;
  task?: string;
};

const REQUIRED = [["benchmark", "--benchmark B"], ["model", "--model M"], ["network", "--network on|off"], ["prompt", "--prompt vanilla|principled"], ["run", "--run N"]] as const;

export function draftToRecord(draft: TrajectoryDraft, condition: Condition, filePath: string, resolved: ResolvedLookup | null):
  { ok: true; value: Record<string, unknown> } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = REQUIRED.filter(([k]) => condition[k] === undefined).map(([k, option]) => ({
    field: k,
    message: `${draft.format} files do not say the ${k}: give ${option} (or a manifest)`,
  }));
  const task = condition.task ?? draft.taskId ?? taskIdFromPath(filePath);
  if (!task) errors.push({ field: "task", message: `the file does not name its task instance: give --task ID (or name the file after the instance)` });
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      type: "trajectory",
      benchmark: condition.benchmark, model: condition.model, network: condition.network, prompt: condition.prompt, run: condition.run,
      task: { id: task, repo: draft.repo ?? null, base_commit: draft.baseCommit ?? null, language: draft.language ?? null },
      resolved: resolved ? resolved(task!) : null,
      patch: draft.patch,
      turns: draft.turns,
      metadata: { ...draft.metadata, source_format: draft.format },
    },
  };
}
