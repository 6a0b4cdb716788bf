// OpenHands: output.jsonl histories (v0 or SDK v1), UI exports, resolver histories, completion logs.
import type { Turn } from "@/lib/domain/steps";
import { chatTurn, isObj, type Obj, pick, str, type TrajectoryDraft, textOf, withInstruction } from "./common";

/** Events that are bookkeeping, not the agent's work. */
const SKIP_ACTIONS = new Set(["recall", "change_agent_state", "null"]);
const SKIP_OBSERVATIONS = new Set(["recall", "agent_state_changed", "null"]);

/** The input of a v0 action: the command, code or message it carries, else its arguments. */
function v0Input(action: string, args: Obj): string | Record<string, unknown> {
  if (action === "run" && typeof args.command === "string") return args.command;
  if (action === "run_ipython" && typeof args.code === "string") return args.code;
  if (action === "finish") return str(args.final_thought) ?? str(args.message) ?? textOf(args.outputs);
  if (action === "think") return str(args.thought) ?? "";
  const { thought: _t, ...rest } = args;
  return rest;
}

/** v0 events (and the resolver's flat ones, which name no source: before the first action is the user's). */
export function v0Turns(events: readonly Obj[]): Turn[] {
  const turns: Turn[] = [];
  let acted = false;
  events.forEach((e, i) => {
    const args = isObj(e.args) ? e.args : e;
    const id = e.id !== undefined ? String(e.id) : `event-${i}`;
    if (typeof e.action === "string") {
      const action = e.action;
      if (SKIP_ACTIONS.has(action)) return;
      if (action === "system") {
        turns.push({ role: "system", content: str(args.content) ?? str(e.message) ?? "" });
        return;
      }
      if (action === "message") {
        const content = str(args.content) ?? str(e.message) ?? "";
        const fromUser = e.source === "user" || (e.source === undefined && !acted);
        turns.push(
          fromUser
            ? { role: "user", content }
            : { role: "assistant", content, ...(str(args.thought) ? { reasoning: str(args.thought) } : {}) },
        );
        return;
      }
      acted = true;
      const meta = isObj(e.tool_call_metadata) ? e.tool_call_metadata : {};
      const thought = str(args.thought);
      turns.push({
        role: "assistant",
        content: "",
        ...(thought ? { reasoning: thought } : {}),
        tool_calls: [{ id, name: str(meta.function_name) ?? action, input: v0Input(action, args) }],
      });
      return;
    }
    if (typeof e.observation === "string" && !SKIP_OBSERVATIONS.has(e.observation)) {
      const extras = isObj(e.extras) ? e.extras : {};
      const metadata = isObj(extras.metadata) ? extras.metadata : {};
      const exit = metadata.exit_code ?? extras.exit_code ?? e.exit_code;
      turns.push({
        role: "tool",
        tool_call_id: e.cause !== undefined && e.cause !== null ? String(e.cause) : null,
        content: textOf(e.content),
        ...(typeof exit === "number" && Number.isInteger(exit) ? { exit_code: exit } : {}),
      });
    }
  });
  return turns;
}

/** The input of an SDK v1 action: a bash command as itself, other actions as their fields. */
function v1Input(action: Obj): string | Record<string, unknown> {
  if (typeof action.command === "string" && action.kind === "ExecuteBashAction") return action.command;
  if (action.kind === "FinishAction") return str(action.message) ?? "";
  if (action.kind === "ThinkAction") return str(action.thought) ?? "";
  const { kind: _k, ...rest } = action;
  return rest;
}

/** SDK v1 events: ActionEvent, ObservationEvent, MessageEvent, SystemPromptEvent, AgentErrorEvent. */
export function v1Turns(events: readonly Obj[]): Turn[] {
  const turns: Turn[] = [];
  for (const e of events) {
    switch (e.kind) {
      case "SystemPromptEvent":
        turns.push({ role: "system", content: textOf(e.system_prompt) });
        break;
      case "MessageEvent": {
        const m = isObj(e.llm_message) ? e.llm_message : {};
        const turn = chatTurn(m);
        if (turn) turns.push(turn);
        break;
      }
      case "ActionEvent": {
        const action = isObj(e.action) ? e.action : {};
        const thought = Array.isArray(e.thought) ? e.thought.map(textOf).join("\n") : textOf(e.thought);
        const reasoning = str(e.reasoning_content) ?? (thought || null);
        turns.push({
          role: "assistant",
          content: "",
          ...(reasoning ? { reasoning } : {}),
          tool_calls: [
            {
              id: str(e.tool_call_id) ?? str(e.id),
              name: str(e.tool_name) ?? str(action.kind) ?? "tool",
              input: v1Input(action),
            },
          ],
        });
        break;
      }
      case "ObservationEvent":
      case "AgentErrorEvent":
      case "UserRejectObservation": {
        const o = isObj(e.observation) ? e.observation : {};
        const metadata = isObj(o.metadata) ? o.metadata : {};
        const exit = o.exit_code ?? metadata.exit_code;
        const content =
          e.kind === "ObservationEvent"
            ? (str(o.output) ?? textOf(o.content ?? o))
            : (str(e.error) ?? str(e.rejection_reason) ?? "");
        turns.push({
          role: "tool",
          tool_call_id: str(e.tool_call_id),
          content,
          ...(typeof exit === "number" && Number.isInteger(exit) && exit >= -1 ? { exit_code: exit } : {}),
        });
        break;
      }
    }
  }
  return turns;
}

/** A resolver's issue `{owner, repo, number}` as an instance id, SWE-bench style: `owner__repo-number`. */
function issueId(issue: unknown): string | null {
  if (!isObj(issue) || typeof issue.owner !== "string" || typeof issue.repo !== "string") return null;
  return typeof issue.number === "number" ? `${issue.owner}__${issue.repo}-${issue.number}` : null;
}

/** One line of an evaluation output.jsonl (v0 or SDK v1), or a 2024 resolver line. */
export function readOpenHandsOutput(doc: unknown): TrajectoryDraft {
  const d = doc as Obj;
  const history = (Array.isArray(d.history) ? d.history : []).filter(isObj);
  const sdk = history.some((e) => typeof e.kind === "string");
  const instance = isObj(d.instance) ? d.instance : {};
  const testResult = isObj(d.test_result) ? d.test_result : {};
  const resolver = "issue" in d && !("instance_id" in d);
  return {
    format: sdk ? "openhands-sdk-v1" : resolver ? "openhands-resolver" : "openhands-v0",
    taskId: str(d.instance_id) ?? str(instance.instance_id) ?? issueId(d.issue),
    repo: str(instance.repo) ?? (isObj(d.issue) && str(d.issue.owner) ? `${d.issue.owner}/${str(d.issue.repo)}` : null),
    baseCommit: str(instance.base_commit) ?? str(d.base_commit),
    language: str(instance.language),
    turns: withInstruction(sdk ? v1Turns(history) : v0Turns(history), d.instruction),
    patch: str(testResult.git_patch) ?? str(d.git_patch),
    metadata: {
      ...pick(d, ["error", "success", "result_explanation"]),
      ...pick(d.metadata, ["agent_class", "max_iterations", "dataset"]),
      ...pick(d.metrics, ["accumulated_cost"]),
    },
  };
}

export function readOpenHandsEvents(doc: unknown): TrajectoryDraft {
  return {
    format: "openhands-events",
    taskId: null,
    turns: v0Turns((doc as unknown[]).filter(isObj)),
    patch: null,
    metadata: {},
  };
}

/** A completion log: the last call holds the conversation (`fncall_messages` with mock function calling). */
export function readOpenHandsCompletions(doc: unknown): TrajectoryDraft {
  const d = doc as Obj;
  const fncall = Array.isArray(d.fncall_messages);
  const list = fncall ? d.fncall_messages : d.messages;
  const messages = (Array.isArray(list) ? list : []).filter(isObj);
  const chosen = fncall ? d.fncall_response : d.response;
  const response = isObj(chosen) ? chosen : {};
  const choice = Array.isArray(response.choices) && isObj(response.choices[0]) ? response.choices[0] : {};
  const last = isObj(choice.message) ? [choice.message] : [];
  const turns = [...messages, ...last].map((m) => chatTurn(m)).filter((t): t is Turn => t !== null);
  return {
    format: "openhands-completions",
    taskId: null,
    turns,
    patch: null,
    metadata: { ...pick(d, ["cost", "timestamp"]), model: str(response.model) },
  };
}
