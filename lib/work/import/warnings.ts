import "server-only";
// What an import says without refusing (decision 22); --strict rejects on any.

import type { Located } from "@/lib/data/import/context";
import { fileRefKeys } from "@/lib/data/import/references";
import { auditTurns, type RecordWarning, type TurnCounts, warningText } from "@/lib/formats/audit";
import type { RecordError, TrajectoryRecord } from "@/lib/formats/interchange";
import type { TaskRecord } from "@/lib/formats/task-record";
import { MAX_REPORTED_ERRORS } from "./batches";

export type { RecordWarning };

/** A trajectory as a reader names it: its id, else its task and run. */
export const trajectoryName = (r: TrajectoryRecord) => r.id ?? `${r.task.id} (run ${r.run})`;

export class WarningLog {
  readonly warnings: RecordWarning[] = [];
  count = 0;
  readonly totals: TurnCounts = { assistantTurns: 0, toolCalls: 0 };
  private readonly lines = new Map<string, number>();

  private add(w: RecordWarning) {
    this.count += 1;
    if (this.warnings.length < MAX_REPORTED_ERRORS) this.warnings.push(w);
  }

  check(line: number, record: TrajectoryRecord): void {
    const { counts, warnings } = auditTurns(record.turns);
    this.totals.assistantTurns += counts.assistantTurns;
    this.totals.toolCalls += counts.toolCalls;
    const trajectory = trajectoryName(record);
    for (const w of warnings) this.add({ line, trajectory, ...w });
    const key = fileRefKeys(record).at(-1)!;
    const earlier = this.lines.get(key);
    if (earlier !== undefined)
      this.add({
        line,
        trajectory,
        step: null,
        message:
          `the same trajectory (benchmark, model, task, network, prompt, run) as line ${earlier} of this file: ` +
          `this one replaces it`,
      });
    this.lines.set(key, line);
  }

  /** Task records of the file: an instance given twice is kept once, the later row, and said so. */
  checkTasks(tasks: readonly Located<TaskRecord>[]): void {
    const lines = new Map<string, number>();
    for (const { line, record } of tasks) {
      const earlier = lines.get(record.instanceId);
      if (earlier !== undefined)
        this.add({
          line,
          trajectory: `task record ${record.instanceId}`,
          step: null,
          message: `the same instance as the row at ${earlier} of this file: this one replaces it`,
        });
      lines.set(record.instanceId, line);
    }
  }

  asErrors(): RecordError[] {
    return this.warnings.map((w) => ({ line: w.line, field: null, message: `--strict: ${warningText(w)}` }));
  }
}
