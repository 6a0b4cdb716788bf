// Which reader a file needs, by its own keys, and for none which it resembled and how it differed.

import { ATIF_VERSION, readAtif } from "@/lib/formats/agents/atif";
import { isObj, type Obj, type TrajectoryDraft } from "@/lib/formats/agents/common";
import { readMiniSweAgent } from "@/lib/formats/agents/mini-swe-agent";
import { readMoatless } from "@/lib/formats/agents/moatless";
import { readOpenHandsCompletions, readOpenHandsEvents, readOpenHandsOutput } from "@/lib/formats/agents/openhands";
import { readSweAgent } from "@/lib/formats/agents/swe-agent";
import { recordType } from "./interchange";

export type HarnessFormat =
  | "mini-swe-agent"
  | "swe-agent"
  | "openhands-output"
  | "openhands-events"
  | "openhands-completions"
  | "atif"
  | "moatless";
/** An Inspect AI log is many trajectories: read by inspect-log.ts, not as one document. */
export type DetectedFormat = "interchange" | "interchange-list" | "inspect-log" | HarnessFormat;

export const KNOWN_FORMATS =
  "the app's own records (JSONL or JSON: trajectory, judge_vote, label), mini-swe-agent .traj.json (v1, v2 and " +
  "legacy lists), SWE-agent .traj (0.x and 1.x), OpenHands evaluation output.jsonl (v0 events, SDK v1 and the " +
  "2024 resolver), OpenHands event lists and completion logs, Inspect AI logs (.eval and .json), Harbor ATIF " +
  "trajectory.json (ATIF-v1.0 to v1.7) and Moatless trajectory.json";

const isMiniFormat = (v: unknown) => typeof v === "string" && /^mini-swe-agent-\d+(\.\d+)?$/.test(v);
const isInspectLog = (v: Obj) => isObj(v.eval) && ("samples" in v || ("version" in v && "status" in v));

export function detectFormat(value: unknown): DetectedFormat | null {
  if (Array.isArray(value)) {
    const items = value.filter(isObj);
    if (items.length !== value.length) return null;
    if (items.length === 0) return "interchange-list";
    if (items.every((x) => recordType(x) !== null)) return "interchange-list";
    if (items.some((x) => "source" in x && ("action" in x || "observation" in x))) return "openhands-events";
    if (items.every((x) => typeof x.role === "string" && "content" in x)) return "mini-swe-agent";
    return null;
  }
  if (!isObj(value)) return null;
  if (isMiniFormat(value.trajectory_format)) return "mini-swe-agent";
  if ("fncall_messages" in value) return "openhands-completions";
  // A completion log with native tool calls: the request's messages, the response, litellm's kwargs.
  if (Array.isArray(value.messages) && isObj(value.response) && "kwargs" in value) return "openhands-completions";
  if (Array.isArray(value.trajectory) && Array.isArray(value.history) && "info" in value) return "swe-agent";
  if (Array.isArray(value.history) && ("instance_id" in value || "instruction" in value || "issue" in value))
    return "openhands-output";
  if (typeof value.schema_version === "string" && ATIF_VERSION.test(value.schema_version) && Array.isArray(value.steps))
    return "atif";
  if (Array.isArray(value.transitions) && ("initial_message" in value || "transition_rules" in value))
    return "moatless";
  if (isInspectLog(value)) return "inspect-log";
  if (recordType(value) !== null || "type" in value) return "interchange";
  return null;
}

/** Why a value matched no format: the format it resembles and what differs, else the known formats. */
export function unknownFormat(value: unknown): string {
  const near = isObj(value) ? nearMiss(value) : null;
  const keys = isObj(value) ? Object.keys(value).slice(0, 12) : [];
  const shape = Array.isArray(value)
    ? "a list whose items are not all records, messages or events"
    : isObj(value)
      ? `an object with the keys ${keys.join(", ") || "(none)"}${Object.keys(value).length > keys.length ? ", …" : ""}`
      : `a ${value === null ? "null" : typeof value}`;
  if (near) return `unknown format: this resembles ${near.format}, but ${near.differs}`;
  return `unknown format: ${shape}; expected ${KNOWN_FORMATS}`;
}

function nearMiss(v: Obj): { format: string; differs: string } | null {
  if (typeof v.schema_version === "string" && /^ATIF/i.test(v.schema_version))
    return Array.isArray(v.steps)
      ? {
          format: "Harbor ATIF",
          differs:
            `its schema_version "${v.schema_version.slice(0, 40)}" is not one the importer reads ` +
            "(ATIF-v1.0 to ATIF-v1.7)",
        }
      : { format: "Harbor ATIF", differs: "it has no steps list" };
  if (Array.isArray(v.steps) && isObj(v.agent))
    return { format: "Harbor ATIF", differs: 'it has no schema_version (e.g. "ATIF-v1.5")' };
  if ("trajectory_format" in v)
    return {
      format: "mini-swe-agent",
      differs: `its trajectory_format ${JSON.stringify(v.trajectory_format).slice(0, 60)} is not mini-swe-agent-N`,
    };
  if (Array.isArray(v.messages) && isObj(v.info) && ("instance_id" in v || "config" in v.info))
    return { format: "mini-swe-agent", differs: "it has no trajectory_format" };
  if (Array.isArray(v.trajectory) && "info" in v && !Array.isArray(v.history))
    return { format: "SWE-agent .traj", differs: "it has no history list" };
  if (Array.isArray(v.history))
    return { format: "OpenHands output.jsonl", differs: "it names no instance_id, instruction or issue" };
  if (Array.isArray(v.transitions)) return { format: "Moatless", differs: "it has no initial_message" };
  if (isObj(v.eval)) return { format: "an Inspect AI log", differs: "it has no samples, version or status" };
  return null;
}

const READERS: Record<HarnessFormat, (doc: unknown) => TrajectoryDraft> = {
  "mini-swe-agent": readMiniSweAgent,
  "swe-agent": readSweAgent,
  "openhands-output": readOpenHandsOutput,
  "openhands-events": readOpenHandsEvents,
  "openhands-completions": readOpenHandsCompletions,
  atif: readAtif,
  moatless: readMoatless,
};

export function readHarness(format: HarnessFormat, doc: unknown): TrajectoryDraft {
  return READERS[format](doc);
}
