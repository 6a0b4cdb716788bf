// Harbor's ATIF v1.0–1.7 (RFC 0001): `steps[]` with tool_calls and observation.results.
import type { Turn } from "@/lib/domain/steps";
import { isObj, type Obj, pick, str, type TrajectoryDraft, textOf, toolInput } from "./common";

export const ATIF_VERSION = /^ATIF-v1\.[0-7]$/;

/** An observation's results: text of each, with the call it answers. */
function results(step: Obj): Array<{ callId: string | null; content: string }> {
  const observation = isObj(step.observation) ? step.observation : {};
  const list = Array.isArray(observation.results) ? observation.results.filter(isObj) : [];
  return list.map((r) => ({ callId: str(r.source_call_id), content: textOf(r.content) }));
}

function stepTurns(step: Obj): Turn[] {
  const message = textOf(step.message);
  if (step.source === "agent") {
    const calls = (Array.isArray(step.tool_calls) ? step.tool_calls : []).filter(isObj);
    const reasoning = str(step.reasoning_content);
    const turn: Turn = { role: "assistant", content: message, ...(reasoning ? { reasoning } : {}) };
    if (calls.length)
      turn.tool_calls = calls.map((c, i) => ({
        id: str(c.tool_call_id) ?? `step-${String(step.step_id)}-${i}`,
        name: str(c.function_name) ?? "tool",
        input: toolInput(c.arguments ?? {}),
      }));
    const answers = results(step).map(
      (r): Turn => ({ role: "tool", tool_call_id: r.callId ?? turn.tool_calls?.[0]?.id ?? null, content: r.content }),
    );
    return [turn, ...answers];
  }
  // System steps may carry an observation of their own (a reset, a delegation): kept with the message.
  const extra = results(step).map((r) => r.content);
  const content = [message, ...extra].filter(Boolean).join("\n\n");
  return [{ role: step.source === "user" ? "user" : "system", content }];
}

export function readAtif(doc: unknown): TrajectoryDraft {
  const d = doc as Obj;
  const agent = isObj(d.agent) ? d.agent : {};
  const steps = (Array.isArray(d.steps) ? d.steps : []).filter(isObj);
  const stepModel = steps.map((s) => str(s.model_name)).find(Boolean) ?? null;
  return {
    format: `atif-${String(d.schema_version).replace(/^ATIF-/, "")}`,
    taskId: null,
    turns: steps.flatMap(stepTurns),
    patch: null,
    metadata: {
      ...pick(d, ["session_id", "notes", "final_metrics", "continued_trajectory_ref"]),
      agent: pick(agent, ["name", "version", "model_name"]),
    },
    condition: { model: str(agent.model_name) ?? stepModel },
  };
}
