// Step N is the N-th assistant message with the messages after it up to the next; before the first is step 0.

export type TurnRole = "system" | "user" | "assistant" | "tool";

export type TurnToolCall = { id?: string | null; name: string; input: string | Record<string, unknown> };

export type Turn = {
  role: TurnRole;
  content?: string | null;
  reasoning?: string | null;
  tool_calls?: TurnToolCall[];
  tool_call_id?: string | null;
  exit_code?: number | null;
};

export type StepMessage = {
  seq: number;
  step: number;
  role: TurnRole;
  content: string;
  reasoning: string | null;
  toolCallId: string | null;
  exitCode: number | null;
  toolCalls: Array<{ seq: number; callId: string | null; name: string; input: string; inputIsJson: boolean }>;
};

export function numberSteps(turns: readonly Turn[]): { messages: StepMessage[]; stepCount: number } {
  let step = 0;
  const messages = turns.map((t, seq): StepMessage => {
    if (t.role === "assistant") step += 1;
    return {
      seq,
      step,
      role: t.role,
      content: t.content ?? "",
      reasoning: t.reasoning ?? null,
      toolCallId: t.tool_call_id ?? null,
      exitCode: t.exit_code ?? null,
      toolCalls: (t.tool_calls ?? []).map((c, i) => ({
        seq: i,
        callId: c.id ?? null,
        name: c.name,
        input: typeof c.input === "string" ? c.input : JSON.stringify(c.input),
        inputIsJson: typeof c.input !== "string",
      })),
    };
  });
  return { messages, stepCount: step };
}
