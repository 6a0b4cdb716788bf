import { describe, expect, it } from "vitest";
import { numberSteps, type Turn } from "./steps";

describe("numberSteps", () => {
  it("numbers assistant messages from 1; the prompt is step 0; answers share their call's step", () => {
    const turns: Turn[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "fix it" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "c1", name: "bash", input: "git log --all" },
          { id: "c2", name: "edit", input: { path: "a.py" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "9f3e2d1 fix", exit_code: 0 },
      { role: "tool", tool_call_id: "c2", content: "ok" },
      { role: "assistant", content: "done" },
      { role: "user", content: "<returncode>0</returncode>" },
    ];
    const { messages, stepCount } = numberSteps(turns);
    expect(stepCount).toBe(2);
    expect(messages.map((m) => m.step)).toEqual([0, 0, 1, 1, 1, 2, 2]);
    expect(messages.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(messages[2]!.toolCalls).toEqual([
      { seq: 0, callId: "c1", name: "bash", input: "git log --all", inputIsJson: false },
      { seq: 1, callId: "c2", name: "edit", input: '{"path":"a.py"}', inputIsJson: true },
    ]);
    expect(messages[3]).toMatchObject({ toolCallId: "c1", exitCode: 0, content: "9f3e2d1 fix" });
  });

  it("a trajectory with no turns has no steps", () => {
    expect(numberSteps([])).toEqual({ messages: [], stepCount: 0 });
  });
});
