// No silent loss: turns and calls read per trajectory, and a warning where an action may have been missed.
import type { Turn } from "@/lib/domain/steps";

export type TurnCounts = { assistantTurns: number; toolCalls: number };

/** A warning about one trajectory, at a step (the N-th assistant turn) or about the whole of it (step null). */
export type TurnWarning = { step: number | null; message: string };

/** Tags agents and harnesses use to wrap a call in text (OpenHands' prompt format, Hermes, Anthropic's, XML). */
const TOOL_TAG =
  /<(function|tool_call|tool_use|invoke|execute_bash|execute_ipython_cell|bash|command|action)\b[=\s>/]/i;
const FENCE = /(^|\n)[ \t]*```[ \t]*([^\s`]*)[^\n]*\n/;
const FUNCTION_OBJECT =
  /"(?:function|function_call|tool_name)"\s*:\s*[{"]|"name"\s*:\s*"[^"]*"\s*,\s*"(?:arguments|parameters|input)"\s*:/;

/** What in an assistant text looks like an action, in words, or null. */
export function actionLike(text: string): string | null {
  const fence = FENCE.exec(text);
  if (fence) return fence[2] ? `a fenced code block (\`\`\`${fence[2].slice(0, 40)})` : "a fenced code block";
  const tag = TOOL_TAG.exec(text);
  if (tag) return `a <${tag[1]!.toLowerCase()}> tag`;
  if (FUNCTION_OBJECT.test(text)) return "a function-call object";
  return null;
}

/** Counts a trajectory's assistant turns and tool calls, and warns where an action may have been missed. */
export function auditTurns(turns: readonly Turn[]): { counts: TurnCounts; warnings: TurnWarning[] } {
  const counts: TurnCounts = { assistantTurns: 0, toolCalls: 0 };
  const warnings: TurnWarning[] = [];
  for (const t of turns) {
    if (t.role !== "assistant") continue;
    counts.assistantTurns += 1;
    const calls = t.tool_calls?.length ?? 0;
    counts.toolCalls += calls;
    if (calls) continue;
    const found = actionLike(t.content ?? "");
    if (found)
      warnings.push({
        step: counts.assistantTurns,
        message: `the assistant's text holds ${found} but no tool call was read from it`,
      });
  }
  if (counts.assistantTurns > 0 && counts.toolCalls === 0)
    warnings.unshift({
      step: null,
      message:
        `${counts.assistantTurns} assistant turn(s) and not one tool call was read: ` +
        "the reader may not know how this harness writes its actions",
    });
  return { counts, warnings };
}

/** A warning of an import: the line (or record) of the file, the trajectory, its step or null for all of it. */
export type RecordWarning = { line: number; trajectory: string; step: number | null; message: string };

export function warningText(w: Omit<RecordWarning, "line">): string {
  return `${w.trajectory}${w.step !== null ? `, step ${w.step}` : ""}: ${w.message}`;
}

/** How a file's records are numbered: JSON Lines by line, anything else by record. */
export const recordUnit = (fileName: string): "line" | "record" =>
  /\.jsonl(\.gz)?$/i.test(fileName) ? "line" : "record";
