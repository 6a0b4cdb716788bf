// Moatless Tools 0.0.x: each transition's action a step named by its state.
import type { Turn } from "@/lib/domain/steps";
import { isObj, type Obj, pick, str, type TrajectoryDraft } from "./common";

function actionTurns(transition: Obj, t: number): Turn[] {
  const name = str(transition.name) ?? "action";
  const actions = (Array.isArray(transition.actions) ? transition.actions : []).filter(isObj);
  return actions.flatMap((a, i): Turn[] => {
    const request = isObj(a.request) ? a.request : {};
    const { scratch_pad, ...input } = request;
    const id = `moatless-${String(transition.id ?? t)}-${i}`;
    const response = isObj(a.response) ? a.response : {};
    const output = response.output ?? response.message ?? null;
    return [
      {
        role: "assistant",
        content: "",
        ...(typeof scratch_pad === "string" && scratch_pad ? { reasoning: scratch_pad } : {}),
        tool_calls: [{ id, name, input }],
      },
      {
        role: "tool",
        tool_call_id: id,
        content: [
          str(response.trigger),
          output == null ? "" : typeof output === "string" ? output : JSON.stringify(output, null, 1),
        ]
          .filter(Boolean)
          .join("\n"),
      },
    ];
  });
}

export function readMoatless(doc: unknown): TrajectoryDraft {
  const d = doc as Obj;
  const info = isObj(d.info) ? d.info : {};
  const transitions = (Array.isArray(d.transitions) ? d.transitions : []).filter(isObj);
  const model = transitions.map((t) => (isObj(t.properties) ? str(t.properties.model) : null)).find(Boolean) ?? null;
  const firstCommit = transitions
    .map((t) => (isObj(t.snapshot) && isObj(t.snapshot.repository) ? str(t.snapshot.repository.commit) : null))
    .find(Boolean);
  return {
    format: "moatless-v0",
    taskId: str(info.instance_id),
    baseCommit: firstCommit ?? null,
    turns: [{ role: "user", content: str(d.initial_message) ?? "" }, ...transitions.flatMap(actionTurns)],
    patch: str(info.submission),
    metadata: pick(info, ["evaluation_name", "status", "duration", "total_cost"]),
    condition: { model },
  };
}
