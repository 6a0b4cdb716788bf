// mini-swe-agent `.traj.json` v1, v2 (tool calls or fenced actions) or a bare list; fences as the file declares.
import type { Turn } from "@/lib/domain/steps";
import { chatTurn, isObj, type Obj, pick, returncodeObservation, str, type TrajectoryDraft, textOf } from "./common";

export const KNOWN_FENCES = ["bash", "sh", "shell", "mswea_bash_command"] as const;
const FENCE_NAME = /```\s*([A-Za-z_][\w-]{0,40})/;

/** The fences a trajectory declares for its actions: its config's action regex, else its system prompt's. */
export function declaredFences(d: Obj, messages: readonly Obj[]): string[] {
  const config = isObj(d.info) && isObj(d.info.config) ? d.info.config : {};
  const regexes = [config.agent, config.model].map((c) => (isObj(c) ? str(c.action_regex) : null));
  const fromConfig = regexes.map((r) => (r ? FENCE_NAME.exec(r)?.[1] : undefined)).filter((x): x is string => !!x);
  if (fromConfig.length) return [...new Set(fromConfig)];
  const system = textOf(messages.find((m) => m.role === "system")?.content);
  const fromPrompt = [...system.matchAll(/```([A-Za-z_][\w-]{0,40})[ \t]*\n/g)].map((m) => m[1]!);
  const known = fromPrompt.filter((f) => (KNOWN_FENCES as readonly string[]).includes(f));
  return known.length ? [...new Set(known)] : [...KNOWN_FENCES];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The actions of an assistant text: each block fenced with one of the fences (mini-swe-agent's own pattern). */
export function fencedActions(text: string, fences: readonly string[]): string[] {
  const re = new RegExp(`\`\`\`(?:${fences.map(escapeRegExp).join("|")})[ \\t]*\\n([\\s\\S]*?)\\n?\`\`\``, "g");
  return [...text.matchAll(re)].map((m) => m[1]!.trimEnd());
}

/** The reasoning a provider returned beside the message (OpenRouter's `reasoning`, or `reasoning_content`). */
function providerReasoning(m: Obj): string | null {
  const extra = isObj(m.extra) ? m.extra : {};
  const response = isObj(extra.response) ? extra.response : {};
  const choice = Array.isArray(response.choices) && isObj(response.choices[0]) ? response.choices[0] : {};
  const message = isObj(choice.message) ? choice.message : {};
  return str(message.reasoning) ?? str(message.reasoning_content);
}

/** The actions mini-swe-agent recorded itself (v2's `extra.actions[{command}]`), when there are. */
function recordedActions(m: Obj): string[] | null {
  const extra = isObj(m.extra) ? m.extra : {};
  if (!Array.isArray(extra.actions)) return null;
  const commands = extra.actions.map((a) => (isObj(a) ? str(a.command) : null)).filter((c): c is string => c !== null);
  return commands.length ? commands : null;
}

/** Messages in order: native tool calls as such, else recorded or fenced actions answered by what follows. */
function messageTurns(messages: readonly Obj[], fences: readonly string[]): Turn[] {
  const turns: Turn[] = [];
  let pending: string[] = [];
  messages.forEach((m, i) => {
    if (m.role === "assistant" && !(Array.isArray(m.tool_calls) && m.tool_calls.length)) {
      const content = textOf(m.content);
      // Like mini-swe-agent: exactly one fenced block is an action; more or none is a format error it answered.
      const fenced = fencedActions(content, fences);
      const actions = recordedActions(m) ?? (fenced.length === 1 ? fenced : []);
      const reasoning = providerReasoning(m);
      pending = actions.map((_, k) => (actions.length > 1 ? `mini-${i}-${k}` : `mini-${i}`));
      turns.push({
        role: "assistant",
        content,
        ...(reasoning ? { reasoning } : {}),
        ...(actions.length
          ? { tool_calls: actions.map((input, k) => ({ id: pending[k]!, name: "bash", input })) }
          : {}),
      });
      return;
    }
    const turn = chatTurn(m, m.role === "assistant" ? providerReasoning(m) : null);
    if (!turn) return;
    const observation =
      turn.role === "tool" || (turn.role === "user" && pending.length)
        ? returncodeObservation(turn.content ?? "")
        : null;
    if (observation) {
      if (turn.role === "user") turn.role = "tool";
      turn.tool_call_id ??= pending.shift() ?? null;
      turn.content = observation.output;
      turn.exit_code = observation.exitCode;
    }
    if (turn.role === "assistant") pending = [];
    turns.push(turn);
  });
  return turns;
}

export function readMiniSweAgent(doc: unknown): TrajectoryDraft {
  if (Array.isArray(doc)) {
    const messages = doc.filter(isObj);
    return {
      format: "mini-swe-agent-legacy",
      taskId: null,
      turns: messageTurns(messages, declaredFences({}, messages)),
      patch: null,
      metadata: {},
    };
  }
  const d = doc as Obj;
  const info = isObj(d.info) ? d.info : {};
  const all = (Array.isArray(d.messages) ? d.messages : []).filter(isObj);
  const messages = all.filter((m) => m.role !== "exit");
  const exit = all.find((m) => m.role === "exit");
  const native = messages.some((m) => m.role === "tool" || Array.isArray(m.tool_calls));
  return {
    format: str(d.trajectory_format) ?? (native ? "mini-swe-agent-1.1" : "mini-swe-agent-1"),
    taskId: str(d.instance_id),
    turns: messageTurns(messages, declaredFences(d, messages)),
    patch: str(info.submission) ?? (exit ? textOf(exit.content) || null : null),
    metadata: pick(info, ["exit_status", "model_stats", "mini_version"]),
  };
}
