// mini-swe-agent `<instance>.traj.json` (../shared/docs/formats.md §2), three variants:
// - "mini-swe-agent-1" (v1.x): assistant text "THOUGHT: … ```bash cmd```"; observations are user
//   messages `<returncode>N</returncode><output>…</output>`; reasoning in extra.response.
// - "mini-swe-agent-1.1" (v2.x): native tool calls, observations as role "tool", a final role "exit".
// - legacy: a bare list of {role, content} messages.
import type { Turn } from "@/lib/domain/steps";
import { chatTurn, isObj, pick, returncodeObservation, str, textOf, type Obj, type TrajectoryDraft } from "./common";

const BASH_BLOCK = /```(?:bash|sh|shell)[^\n]*\n([\s\S]*?)```/;

/** The reasoning a provider returned beside the message (OpenRouter's `reasoning`, or `reasoning_content`). */
function providerReasoning(m: Obj): string | null {
  const extra = isObj(m.extra) ? m.extra : {};
  const response = isObj(extra.response) ? extra.response : {};
  const choice = Array.isArray(response.choices) && isObj(response.choices[0]) ? response.choices[0] : {};
  const message = isObj(choice.message) ? choice.message : {};
  return str(message.reasoning) ?? str(message.reasoning_content);
}

/**
 * v1 and legacy: the bash block of an assistant message becomes its tool call; the next returncode message answers
 * it.
 */
function textActionTurns(messages: readonly Obj[]): Turn[] {
  const turns: Turn[] = [];
  let pending: string | null = null;
  messages.forEach((m, i) => {
    const content = textOf(m.content);
    if (m.role === "assistant") {
      const action = BASH_BLOCK.exec(content)?.[1]?.trimEnd();
      const reasoning = providerReasoning(m);
      pending = action !== undefined ? `mini-${i}` : null;
      turns.push({
        role: "assistant",
        content,
        ...(reasoning ? { reasoning } : {}),
        ...(action !== undefined ? { tool_calls: [{ id: pending!, name: "bash", input: action }] } : {}),
      });
      return;
    }
    const observation = m.role === "user" && pending ? returncodeObservation(content) : null;
    if (observation) {
      turns.push({ role: "tool", tool_call_id: pending, content: observation.output, exit_code: observation.exitCode });
      pending = null;
      return;
    }
    if (m.role === "system" || m.role === "user") turns.push({ role: m.role, content });
  });
  return turns;
}

/** v2: OpenAI-style messages; tool observations keep their returncode wrapper parsed out. */
function toolCallTurns(messages: readonly Obj[]): Turn[] {
  const turns: Turn[] = [];
  for (const m of messages) {
    const turn = chatTurn(m, m.role === "assistant" ? providerReasoning(m) : null);
    if (!turn) continue;
    if (turn.role === "tool") {
      const observation = returncodeObservation(turn.content ?? "");
      if (observation) {
        turn.content = observation.output;
        turn.exit_code = observation.exitCode;
      }
    }
    turns.push(turn);
  }
  return turns;
}

export function readMiniSweAgent(doc: unknown): TrajectoryDraft {
  if (Array.isArray(doc)) {
    return {
      format: "mini-swe-agent-legacy",
      taskId: null,
      turns: textActionTurns(doc.filter(isObj)),
      patch: null,
      metadata: {},
    };
  }
  const d = doc as Obj;
  const info = isObj(d.info) ? d.info : {};
  const messages = (Array.isArray(d.messages) ? d.messages : []).filter(isObj);
  const v2 =
    d.trajectory_format === "mini-swe-agent-1.1" ||
    messages.some((m) => m.role === "tool" || Array.isArray(m.tool_calls));
  const exit = messages.find((m) => m.role === "exit");
  return {
    format: str(d.trajectory_format) ?? (v2 ? "mini-swe-agent-1.1" : "mini-swe-agent-1"),
    taskId: str(d.instance_id),
    turns: v2 ? toolCallTurns(messages.filter((m) => m.role !== "exit")) : textActionTurns(messages),
    patch: str(info.submission) ?? (exit ? textOf(exit.content) || null : null),
    metadata: pick(info, ["exit_status", "model_stats", "mini_version"]),
  };
}
