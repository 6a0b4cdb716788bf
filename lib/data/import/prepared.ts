import "server-only";
// The database-free part of writing a trajectory, done while the previous batch is written.
import { SearchDocument } from "@/lib/domain/search";
import { numberSteps } from "@/lib/domain/steps";
import { storableText } from "@/lib/domain/text";
import type { TrajectoryRecord } from "@/lib/formats/interchange";
import { partsDigest } from "../digest";
import { encodeCopyRow } from "../sql";
import type { Located } from "./context";
import { nameKeyString } from "./references";

/** A trajectory ready to write: steps numbered, rows encoded (see TrajectoryWriter.prepare). */
export type PreparedTrajectory = Located<TrajectoryRecord> & {
  format: string;
  key: string;
  stepCount: number;
  messageCount: number;
  /** COPY rows of its messages and tool calls, one a line, each line lacking only the trajectory id in front. */
  messageRows: string;
  callRows: string;
  search: { commands: string; outputs: string };
  /** What is written of it, digested: brought again unchanged, it is not written (trajectory.contentDigest). */
  digest: string;
};

/** The COPY columns of the encoded rows, the trajectory id first. */
export const MESSAGE_COLUMNS = [
  "trajectoryId",
  "seq",
  "step",
  "role",
  "content",
  "reasoning",
  "toolCallId",
  "exitCode",
] as const;
export const TOOL_CALL_COLUMNS = [
  "trajectoryId",
  "messageSeq",
  "step",
  "seq",
  "callId",
  "name",
  "input",
  "inputIsJson",
] as const;

const t = (s: string | null | undefined) => (s == null ? null : storableText(s));

/** Numbers the steps and encodes message and tool-call rows for COPY, all but the trajectory id. */
export function prepareTrajectory({
  line,
  record,
  format = "interchange",
}: Located<TrajectoryRecord> & { format?: string }): PreparedTrajectory {
  const key = nameKeyString({
    benchmark: storableText(record.benchmark),
    model: storableText(record.model),
    task: storableText(record.task.id),
    network: record.network,
    prompt: record.prompt,
    run: record.run,
  });
  const { messages, stepCount } = numberSteps(record.turns);
  const messageRows: string[] = [];
  const callRows: string[] = [];
  const search = new SearchDocument();
  for (const m of messages) {
    const content = storableText(m.content);
    messageRows.push(encodeCopyRow([m.seq, m.step, m.role, content, t(m.reasoning), t(m.toolCallId), m.exitCode]));
    const inputs = m.toolCalls.map((c) => {
      const input = storableText(c.input);
      callRows.push(encodeCopyRow([m.seq, m.step, c.seq, t(c.callId), storableText(c.name), input, c.inputIsJson]));
      return input;
    });
    search.addMessage(m.role, content, inputs);
  }
  const rows = { messageRows: messageRows.join("\n"), callRows: callRows.join("\n") };
  // The turns are not kept: their text now lives in the encoded rows, and a batch holds one copy, not two.
  return {
    line,
    record: { ...record, turns: [] },
    format,
    key,
    stepCount,
    messageCount: messages.length,
    ...rows,
    search: search.vectors(),
    digest: partsDigest([
      key,
      JSON.stringify([record.id, record.resolved, record.patch, record.metadata, record.task, format]),
      rows.messageRows,
      rows.callRows,
    ]),
  };
}
