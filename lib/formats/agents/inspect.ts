// Inspect AI logs: each sample epoch a trajectory; attachments resolved, message-less samples rebuilt from events.
import type { Turn } from "@/lib/domain/steps";
import { isObj, type Obj, pick, str, type TrajectoryDraft, toolInput } from "./common";

export type InspectEval = { task: string | null; model: string | null; meta: Obj };

export function inspectEval(header: unknown): InspectEval {
  const h = isObj(header) ? header : {};
  const e = isObj(h.eval) ? h.eval : h;
  return {
    task: str(e.task),
    model: str(e.model),
    meta: { ...pick(e, ["eval_id", "run_id", "task", "task_version", "created"]), ...pick(h, ["status"]) },
  };
}

const ATTACHMENT = /^(?:attachment|tc):\/\/([A-Za-z0-9]+)$/;

/** Every string of a value with `attachment://…` references replaced by the attachment. */
function resolveAttachments(value: unknown, attachments: Obj): unknown {
  if (typeof value === "string") {
    const m = ATTACHMENT.exec(value);
    return m && typeof attachments[m[1]!] === "string" ? attachments[m[1]!] : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments));
  if (isObj(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveAttachments(v, attachments)]));
  return value;
}

/** Content as text and reasoning: a string, or parts of type text, reasoning, image, ... */
function contentParts(content: unknown): { text: string; reasoning: string } {
  if (typeof content === "string") return { text: content, reasoning: "" };
  const text: string[] = [];
  const reasoning: string[] = [];
  for (const p of Array.isArray(content) ? content : []) {
    if (!isObj(p)) continue;
    if (p.type === "text") text.push(str(p.text) ?? "");
    else if (p.type === "reasoning") reasoning.push(str(p.redacted ? p.summary : p.reasoning) ?? str(p.summary) ?? "");
    else if (typeof p.type === "string") text.push(`[${p.type}]`);
  }
  return { text: text.join("\n"), reasoning: reasoning.filter(Boolean).join("\n\n") };
}

function messageTurn(m: Obj, i: number): Turn | null {
  const { text, reasoning } = contentParts(m.content);
  if (m.role === "system" || m.role === "user") return { role: m.role, content: text };
  if (m.role === "assistant") {
    const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).filter(isObj);
    return {
      role: "assistant",
      content: text,
      ...(reasoning ? { reasoning } : {}),
      ...(calls.length
        ? {
            tool_calls: calls.map((c, k) => ({
              id: str(c.id) ?? `inspect-${i}-${k}`,
              name: str(c.function) ?? "tool",
              input: toolInput(c.arguments ?? {}),
            })),
          }
        : {}),
    };
  }
  if (m.role === "tool") {
    const error = isObj(m.error) ? str(m.error.message) : null;
    return { role: "tool", tool_call_id: str(m.tool_call_id), content: [text, error].filter(Boolean).join("\n") };
  }
  return null;
}

/** Range-encoded references `[[start, end), ...]` into a pool of messages. */
function expandRefs(refs: unknown, pool: readonly unknown[]): unknown[] {
  if (!Array.isArray(refs)) return [];
  return refs.flatMap((r) =>
    Array.isArray(r) && typeof r[0] === "number" && typeof r[1] === "number" ? pool.slice(r[0], r[1]) : [],
  );
}

/** The conversation of a sample: its messages, else its last model event's input and output. */
function sampleMessages(s: Obj): Obj[] {
  if (Array.isArray(s.messages) && s.messages.length) return s.messages.filter(isObj);
  const events = (Array.isArray(s.events) ? s.events : []).filter(isObj);
  const last = events.findLast((e) => e.event === "model");
  if (!last) return [];
  const pooled = isObj(s.events_data) && Array.isArray(s.events_data.messages) ? s.events_data.messages : null;
  const pool = pooled ?? (Array.isArray(s.message_pool) ? s.message_pool : []);
  const input = Array.isArray(last.input) && last.input.length ? last.input : expandRefs(last.input_refs, pool);
  const output = isObj(last.output) && Array.isArray(last.output.choices) ? last.output.choices[0] : null;
  const reply = isObj(output) && isObj(output.message) ? [output.message] : [];
  return [...input, ...reply].filter(isObj);
}

/** Whether the scores say the task was solved: the first score that is true/false, C/I, or 1/0. */
export function scoreResolved(scores: unknown): boolean | null {
  if (!isObj(scores)) return null;
  for (const score of Object.values(scores)) {
    const v = isObj(score) ? score.value : undefined;
    if (typeof v === "boolean") return v;
    if (v === "C" || v === "CORRECT") return true;
    if (v === "I" || v === "INCORRECT") return false;
    if (v === 1 || v === 0) return v === 1;
  }
  return null;
}

/** A patch a scorer kept (inspect_evals' SWE-bench scorer: metadata.model_patch). */
function scorePatch(scores: unknown): string | null {
  for (const score of isObj(scores) ? Object.values(scores) : [])
    if (isObj(score) && isObj(score.metadata) && typeof score.metadata.model_patch === "string")
      return score.metadata.model_patch;
  return null;
}

export function readInspectSample(sample: unknown, header: InspectEval): TrajectoryDraft {
  const s = isObj(sample) ? sample : {};
  // Only the conversation is read, so only it has its attachments resolved (events can be most of a sample).
  const attachments = isObj(s.attachments) ? s.attachments : {};
  const messages = sampleMessages(s);
  const resolved = Object.keys(attachments).length ? (resolveAttachments(messages, attachments) as Obj[]) : messages;
  const turns = resolved.map(messageTurn).filter((t): t is Turn => t !== null);
  const epoch = typeof s.epoch === "number" && Number.isInteger(s.epoch) && s.epoch >= 1 ? s.epoch : null;
  return {
    format: "inspect",
    taskId: s.id === undefined || s.id === null ? null : String(s.id),
    turns,
    patch: scorePatch(s.scores),
    resolved: scoreResolved(s.scores),
    metadata: {
      ...header.meta,
      ...pick(s, ["uuid", "total_time", "working_time"]),
      ...(isObj(s.error) ? { error: str(s.error.message) } : {}),
      ...(isObj(s.limit) ? { limit: s.limit } : {}),
    },
    condition: { benchmark: header.task, model: header.model, run: epoch },
  };
}
