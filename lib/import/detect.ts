// Which reader a parsed file (or JSONL line) needs, told by its own keys (formats.md, "Telling the formats apart").
import { recordType } from "./interchange";
import { isObj, type TrajectoryDraft } from "./formats/common";
import { readMiniSweAgent } from "./formats/mini-swe-agent";
import { readSweAgent } from "./formats/swe-agent";
import { readOpenHandsCompletions, readOpenHandsEvents, readOpenHandsOutput } from "./formats/openhands";

export type HarnessFormat =
  | "mini-swe-agent"
  | "swe-agent"
  | "openhands-output"
  | "openhands-events"
  | "openhands-completions";
export type DetectedFormat = "interchange" | "interchange-list" | HarnessFormat;

export const KNOWN_FORMATS =
  "the app's own records (JSONL or JSON: trajectory, judge_vote, label), mini-swe-agent .traj.json (v1, v2 and " +
  "legacy lists), " +
  "SWE-agent .traj (0.x and 1.x), OpenHands evaluation output.jsonl (v0 events and SDK v1), OpenHands event " +
  "lists and OpenHands completion logs";

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
  if ("trajectory_format" in value) return "mini-swe-agent";
  if ("fncall_messages" in value) return "openhands-completions";
  if (Array.isArray(value.trajectory) && Array.isArray(value.history) && "info" in value) return "swe-agent";
  if (Array.isArray(value.history) && ("instance_id" in value || "instruction" in value || "issue" in value))
    return "openhands-output";
  if (recordType(value) !== null || "type" in value) return "interchange";
  return null;
}

const READERS: Record<HarnessFormat, (doc: unknown) => TrajectoryDraft> = {
  "mini-swe-agent": readMiniSweAgent,
  "swe-agent": readSweAgent,
  "openhands-output": readOpenHandsOutput,
  "openhands-events": readOpenHandsEvents,
  "openhands-completions": readOpenHandsCompletions,
};

export function readHarness(format: HarnessFormat, doc: unknown): TrajectoryDraft {
  return READERS[format](doc);
}
