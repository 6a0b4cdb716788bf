// SWE-agent `.traj` 0.x and 1.x: each `trajectory[]` entry a step (thought, action, observation).
import type { Turn } from "@/lib/domain/steps";
import { isObj, type Obj, pick, str, type TrajectoryDraft, textOf } from "./common";

/** SWE-agent's own commands, shown under their name; anything else ran in the shell. */
const TOOLS = new Set([
  "create",
  "edit",
  "open",
  "goto",
  "scroll_up",
  "scroll_down",
  "search_file",
  "search_dir",
  "find_file",
  "submit",
  "str_replace_editor",
  "insert",
  "filemap",
]);

function toolName(action: string): string {
  const first = action.trimStart().split(/\s/, 1)[0] ?? "";
  return TOOLS.has(first) ? first : "bash";
}

export function readSweAgent(doc: unknown): TrajectoryDraft {
  const d = doc as Obj;
  const info = isObj(d.info) ? d.info : {};
  const history = (Array.isArray(d.history) ? d.history : []).filter(isObj);
  const steps = (Array.isArray(d.trajectory) ? d.trajectory : []).filter(isObj);
  const firstAssistant = history.findIndex((m) => m.role === "assistant");
  const prompt = history
    .slice(0, firstAssistant === -1 ? history.length : firstAssistant)
    .filter((m) => !m.is_demo && (m.role === "system" || m.role === "user"));

  const turns: Turn[] = prompt.map((m) => ({ role: m.role as "system" | "user", content: textOf(m.content) }));
  steps.forEach((s, i) => {
    const action = str(s.action) ?? "";
    const id = `step-${i + 1}`;
    const thought = str(s.thought) ?? "";
    turns.push({
      role: "assistant",
      content: thought,
      ...(action.trim() ? { tool_calls: [{ id, name: toolName(action), input: action.replace(/\n$/, "") }] } : {}),
    });
    if (action.trim()) turns.push({ role: "tool", tool_call_id: id, content: textOf(s.observation) });
  });

  // 0.x names the environment, not the instance; 1.x's environment is the instance id.
  const v1 = typeof info.swe_agent_version === "string" || "replay_config" in d;
  return {
    format: v1 ? "swe-agent-1" : "swe-agent-0",
    taskId: v1 ? str(d.environment) : null,
    turns,
    patch: str(info.submission),
    metadata: pick(info, ["exit_status", "model_stats", "swe_agent_version"]),
  };
}
