// What every agent-format reader gives: turns and what the file says; the condition comes from ../condition.ts.
import type { Turn, TurnToolCall } from "@/lib/domain/steps";

export type TrajectoryDraft = {
  /** The reader and variant, e.g. "mini-swe-agent-1.1", stored as the trajectory's source format. */
  format: string;
  taskId: string | null;
  repo?: string | null;
  baseCommit?: string | null;
  language?: string | null;
  turns: Turn[];
  patch: string | null;
  metadata: Record<string, unknown>;
  /** What the file says of its condition (an Inspect log: the model and the epoch as the run); options win. */
  condition?: { benchmark?: string | null; model?: string | null; run?: number | null };
  /** Whether the task was solved, when the file says (an Inspect sample's score); a --resolved file wins. */
  resolved?: boolean | null;
};

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** Message content as text: a string, or a list of parts [{type: "text", text}], or nothing. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === "string" ? p : isObj(p) ? (str(p.text) ?? "") : "")).join("");
  if (isObj(content) && typeof content.text === "string") return content.text;
  return content == null ? "" : JSON.stringify(content);
}

/** Tool arguments: a JSON string or an object. A bash call's lone `command` (Inspect: `cmd`) is the command itself. */
export function toolInput(args: unknown): TurnToolCall["input"] {
  let value = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch {
      return args;
    }
  }
  if (!isObj(value)) return typeof args === "string" ? args : JSON.stringify(args ?? null);
  const keys = Object.keys(value);
  if (keys.length === 1 && typeof value.command === "string") return value.command;
  if (keys.length === 1 && typeof value.cmd === "string") return value.cmd;
  return value;
}

/** An OpenAI-style chat message (system, user, assistant with tool_calls, tool) as a turn. */
export function chatTurn(m: Obj, reasoning?: string | null): Turn | null {
  const role = m.role;
  if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool") return null;
  const turn: Turn = { role, content: textOf(m.content) };
  if (role === "assistant") {
    const calls = Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObj) : [];
    if (calls.length) {
      turn.tool_calls = calls.map((c, i) => {
        const fn = isObj(c.function) ? c.function : {};
        return {
          id: str(c.id) ?? `call-${i}`,
          name: str(fn.name) ?? str(c.name) ?? "tool",
          input: toolInput(fn.arguments ?? c.arguments ?? ""),
        };
      });
    }
    const r = reasoning ?? str(m.reasoning_content) ?? str(m.reasoning);
    if (r) turn.reasoning = r;
  }
  if (role === "tool")
    turn.tool_call_id = str(m.tool_call_id) ?? (Array.isArray(m.tool_call_ids) ? str(m.tool_call_ids[0]) : null);
  return turn;
}

/** `<returncode>N</returncode><output>…</output>` (mini-swe-agent; v2 may put an `<exception>` first). */
export function returncodeObservation(text: string): { exitCode: number; output: string } | null {
  const m = /^\s*(?:<exception>([\s\S]*?)<\/exception>\s*)?<returncode>(-?\d+)<\/returncode>\s*([\s\S]*)$/.exec(text);
  if (!m) return null;
  const body = m[3]!;
  const inner = /<output(?:_head|_tail)?>\n?([\s\S]*?)\n?<\/output(?:_head|_tail)?>/g;
  const parts = [...body.matchAll(inner)].map((x) => x[1]!);
  const output = parts.length ? parts.join("\n…\n") : body;
  return { exitCode: Number(m[2]), output: m[1] ? `${m[1].trim()}\n${output}` : output };
}

const INSTANCE_ID = /([A-Za-z0-9.-]+__[A-Za-z0-9.-]+-\d+)$/;

/** An instance id at the end of a name, or before a trial's suffix (Harbor names trials `<task>__<id>`). */
const instanceIn = (name: string): string | null =>
  INSTANCE_ID.exec(name)?.[1] ?? INSTANCE_ID.exec(name.replace(/__[A-Za-z0-9]{4,12}$/, ""))?.[1] ?? null;

/** An instance id ("owner__repo-123") from the file's base name or one of its three enclosing folders, or null. */
export function taskIdFromPath(filePath: string): string | null {
  const parts = filePath.split(/[\\/]/).filter(Boolean);
  const base = (parts.at(-1) ?? "")
    .replace(/(\.traj)?(\.jsonl?|\.traj|\.eval)?(\.gz)?$/, "")
    .replace(/\.trajectory$/, "");
  const folders = parts.slice(-4, -1).reverse();
  for (const name of [base, ...folders]) {
    const id = instanceIn(name);
    if (id) return id;
  }
  return null;
}

/** A first user message from an `instruction` field, for files whose history starts with the agent. */
export function withInstruction(turns: Turn[], instruction: unknown): Turn[] {
  const firstAssistant = turns.findIndex((t) => t.role === "assistant");
  const hasPrompt = turns
    .slice(0, firstAssistant === -1 ? turns.length : firstAssistant)
    .some((t) => t.role === "user");
  const text = textOf(instruction);
  if (hasPrompt || !text) return turns;
  const systemEnd = turns.findIndex((t) => t.role !== "system");
  const at = systemEnd === -1 ? turns.length : systemEnd;
  return [...turns.slice(0, at), { role: "user", content: text }, ...turns.slice(at)];
}

export function pick(o: unknown, keys: readonly string[]): Obj {
  if (!isObj(o)) return {};
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}
