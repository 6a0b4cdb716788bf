// A harness trajectory as a record of the file being read (decision 22).

import type { TrajectoryDraft } from "@/lib/formats/agents/common";
import { recordUnit } from "@/lib/formats/audit";
import { type Asks, type Condition, draftCondition, draftToRecord, optionName } from "@/lib/formats/condition";
import type { RawRecord } from "@/lib/formats/interchange";
import type { ResolvedLookup } from "@/lib/formats/resolved";
import type { TextOptions } from "./open-text";

export type ReadOptions = TextOptions & {
  condition: Condition;
  resolved: ResolvedLookup | null;
  asks?: Asks;
};

/** What one file's reading keeps across its records: which trajectory each harness record became. */
export type FileRead = {
  file: string;
  opts: ReadOptions;
  /** Natural key → the line of the harness record that gave it and what the file itself said. */
  keys: Map<string, { line: number; own: Record<string, unknown> }>;
};

export const fileRead = (file: string, opts: ReadOptions): FileRead => ({ file, opts, keys: new Map() });

/** The record, refusing two of the file's trajectories merged into one by an option (--task, --run). */
export function harnessRecord(draft: TrajectoryDraft, line: number, bytes: number, read: FileRead): RawRecord {
  const { condition, own, overrides } = draftCondition(draft, read.opts.condition, read.file);
  const record = draftToRecord(draft, condition, read.opts.resolved, read.opts.asks);
  if (!record.ok) return { line, bytes, errors: record.errors };
  const key = JSON.stringify(
    ["benchmark", "model", "task", "network", "prompt", "run"].map((k) => condition[k as keyof Condition]),
  );
  const earlier = read.keys.get(key);
  const lost = earlier ? overrides.filter((k) => earlier.own[k] !== own[k]) : [];
  if (earlier && lost.length) {
    const at = `${recordUnit(read.file)} ${earlier.line}`;
    const what = lost.map(
      (k) =>
        `${optionName(k, read.opts.asks)} ${String(condition[k as keyof Condition])} ` +
        `replaces the ${k} the file gives ` +
        `(${String(own[k])} here, ${String(earlier.own[k])} at ${at})`,
    );
    const message =
      `${what.join("; ")}: this trajectory and the one at ${at} would become one, the second replacing the first. ` +
      `Leave ${lost.map((k) => `--${k}`).join(" and ")} out: the file names each trajectory's own`;
    return { line, bytes, errors: [{ field: lost[0]!, message }] };
  }
  if (!earlier) read.keys.set(key, { line, own });
  return { line, bytes, value: record.value, format: draft.format };
}
