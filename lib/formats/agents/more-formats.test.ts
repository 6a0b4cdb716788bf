// The readers added for Inspect AI, Harbor ATIF, Moatless and mini-swe-agent's declared fences, on
// the real files (test/fixtures.ts, realFixture) (counts read off the files by hand with Python), and
// what detection says of a file that nearly matches a format.

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { numberSteps } from "@/lib/domain/steps";
import { auditTurns } from "@/lib/formats/audit";
import { detectFormat, type HarnessFormat, readHarness, unknownFormat } from "@/lib/formats/detect";
import { readRealJson } from "@/test/fixtures";
import type { Obj } from "./common";
import { inspectEval, readInspectSample, scoreResolved } from "./inspect";
import { declaredFences } from "./mini-swe-agent";

const GRUCKION = "mini-swe-agent/gruckion__gemini-3-pro__astropy__astropy-13033.traj.json";

function read(doc: unknown) {
  const format = detectFormat(doc) as HarnessFormat;
  const draft = readHarness(format, doc);
  return { format, draft, steps: numberSteps(draft.turns), audit: auditTurns(draft.turns) };
}

const clone = <T>(x: T): T => structuredClone(x);

describe("mini-swe-agent: actions by the fence the trajectory declares", () => {
  it("v1 with ```bash: one block is the action; a reply with two is a format error, no call", () => {
    const { draft, audit } = read(readRealJson(GRUCKION));
    const doc = readRealJson(GRUCKION) as Obj & { messages: Obj[] };
    expect(declaredFences(doc, doc.messages)).toEqual(["bash"]);
    // 32 assistant messages; the 27th holds a ```python and a ```bash block (mini-swe-agent answered
    // "found 2 actions" and ran nothing), every other one exactly one ```bash block.
    expect(audit.counts).toEqual({ assistantTurns: 32, toolCalls: 31 });
    expect(audit.warnings).toEqual([
      {
        step: 27,
        message: "the assistant's text holds a fenced code block (```python) but no tool call was read from it",
      },
    ]);
    // Every call but the last (the submission, which ends the run) is answered by a returncode message.
    expect(draft.turns.filter((t) => t.role === "tool")).toHaveLength(30);
  });

  it("a text-based v2 file (```mswea_bash_command, trajectory_format 1.1) reads the same commands", () => {
    const original = read(readRealJson(GRUCKION));
    const doc = clone(readRealJson(GRUCKION)) as Obj & { messages: Obj[]; info: Obj & { config: Obj } };
    doc.trajectory_format = "mini-swe-agent-1.1";
    for (const m of doc.messages)
      if (typeof m.content === "string") m.content = m.content.replaceAll("```bash", "```mswea_bash_command");
    (doc.info.config.agent as Obj).action_regex = "```mswea_bash_command\\s*\\n(.*?)\\n```";
    const v2 = read(doc);
    expect(v2.draft.format).toBe("mini-swe-agent-1.1");
    const commands = (d: typeof v2) => d.draft.turns.flatMap((t) => t.tool_calls ?? []).map((c) => c.input);
    expect(commands(v2)).toEqual(commands(original));
    expect(commands(v2)[0]).toBe("ls -R astropy/timeseries");
    expect(v2.audit.counts.toolCalls).toBe(31);
  });

  it("the declared fence comes from the system prompt when the config names none", () => {
    const doc = clone(readRealJson(GRUCKION)) as Obj & { messages: Obj[]; info: Obj };
    delete doc.info.config;
    for (const m of doc.messages)
      if (typeof m.content === "string") m.content = m.content.replaceAll("```bash", "```mswea_bash_command");
    expect(declaredFences(doc, doc.messages)).toEqual(["mswea_bash_command"]);
    expect(read(doc).audit.counts.toolCalls).toBe(31);
  });

  it("a fence other than the declared one is not read, and every step says so", () => {
    const doc = clone(readRealJson(GRUCKION)) as Obj & { messages: Obj[] };
    // The config still declares ```bash; the replies use another fence.
    for (const m of doc.messages)
      if (m.role === "assistant" && typeof m.content === "string")
        m.content = m.content.replaceAll("```bash", "```mswea_bash_command");
    const { audit } = read(doc);
    expect(audit.counts).toEqual({ assistantTurns: 32, toolCalls: 0 });
    expect(audit.warnings[0]).toEqual({
      step: null,
      message: expect.stringMatching(/^32 assistant turn\(s\) and not one tool call was read/),
    });
    // One warning a step, plus the one for the whole trajectory.
    expect(audit.warnings).toHaveLength(33);
    expect(audit.warnings[1]!.message).toContain("```mswea_bash_command");
  });

  it("actions mini-swe-agent recorded itself (extra.actions) are read as they are", () => {
    const { draft } = read({
      trajectory_format: "mini-swe-agent-1.1",
      instance_id: "a__b-1",
      info: {},
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "task" },
        {
          role: "assistant",
          content: "THOUGHT\n```mswea_bash_command\npwd\n```",
          extra: { actions: [{ command: "pwd" }] },
        },
        { role: "user", content: "<exception>Timeout</exception>\n<returncode>-1</returncode>\n<output>\n</output>" },
      ],
    });
    expect(draft.turns[2]!.tool_calls).toEqual([{ id: "mini-2", name: "bash", input: "pwd" }]);
    expect(draft.turns[3]).toMatchObject({ role: "tool", tool_call_id: "mini-2", exit_code: -1 });
    expect(draft.turns[3]!.content).toMatch(/^Timeout/);
  });
});

describe("OpenHands resolver output (2024)", () => {
  const line = fs.readFileSync(
    path.resolve(
      import.meta.dirname,
      "../../../test/fixtures/openhands-resolver/openhands-resolver__mock_output__first-line.jsonl",
    ),
    "utf8",
  );

  it("flat history: the issue's instruction, then each command in order with its output", () => {
    const { format, draft, steps } = read(JSON.parse(line));
    expect(format).toBe("openhands-output");
    expect(draft.format).toBe("openhands-resolver");
    expect(draft.taskId).toBe("neubig__pr-viewer-5");
    expect(draft.repo).toBe("neubig/pr-viewer");
    // The first message (no source, before any action) is the user's instruction.
    expect(draft.turns[0]).toMatchObject({ role: "user" });
    expect(draft.turns[0]!.content).toMatch(/^Please fix the following issue/);
    const calls = draft.turns.flatMap((t) => t.tool_calls ?? []);
    expect(calls.map((c) => c.name)).toEqual(["run", "run_ipython", "run", "finish"]);
    expect(calls[0]!.input).toBe("touch LICENSE");
    expect(calls[2]!.input).toBe("cat LICENSE");
    expect(steps.stepCount).toBe(4);
    expect(draft.turns.find((t) => t.role === "tool" && t.content?.startsWith("MIT License\r\n"))?.exit_code).toBe(0);
    expect(draft.patch).toMatch(/^diff --git a\/LICENSE b\/LICENSE/);
    // The resolver's own verdict is an LLM's opinion, kept as metadata, never as resolved.
    expect(draft.metadata.success).toBe(true);
    expect(draft.resolved).toBeUndefined();
  });
});

describe("Harbor ATIF", () => {
  const ATIF = "atif/harbor-golden__terminus_2__hello-world-timeout.trajectory.json";
  const ATIF_17 = "atif/harbor-golden__terminus_2__hello-world-invalid-json.trajectory.json";

  it("steps become turns: the user's task, agent steps with their calls and observations", () => {
    const { format, draft, steps } = read(readRealJson(ATIF));
    expect(format).toBe("atif");
    expect(draft.format).toBe("atif-v1.6");
    // Four steps: the user's task, then three agent steps of one bash_command each (echo, sleep, sleep),
    // each observation naming no call, so it answers its step's one call.
    expect(draft.turns.map((t) => t.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "tool",
    ]);
    expect(steps.stepCount).toBe(3);
    expect(draft.turns[1]!.tool_calls![0]).toEqual({
      id: "call_0_1",
      name: "bash_command",
      input: { keystrokes: "echo 'Hello, world!'\n", duration: 0.1 },
    });
    expect(draft.turns[2]).toEqual({
      role: "tool",
      tool_call_id: "call_0_1",
      content: "New Terminal Output:\n\nroot@CONTAINER_ID:/app# echo 'Hello, world!'\nHello, world!\n\n",
    });
    expect(draft.turns.flatMap((t) => t.tool_calls ?? []).map((c) => c.id)).toEqual([
      "call_0_1",
      "call_1_1",
      "call_2_1",
    ]);
    expect(draft.turns[6]!.tool_call_id).toBe("call_2_1");
    expect(draft.metadata.agent).toEqual({ name: "terminus-2", version: "2.0.0", model_name: "openai/gpt-4o" });
    expect(draft.condition?.model).toBe("openai/gpt-4o");
  });

  it("ATIF-v1.7: an agent step with no call keeps its observation, answering no call", () => {
    const { draft, steps } = read(readRealJson(ATIF_17));
    expect(draft.format).toBe("atif-v1.7");
    // The user's task; four agent steps, the first a reply that was invalid JSON (no call), whose
    // observation is the parser's complaint; then a bash_command and two mark_task_complete.
    expect(draft.turns.map((t) => t.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "tool",
    ]);
    expect(steps.stepCount).toBe(4);
    expect(draft.turns[1]!.tool_calls).toBeUndefined();
    expect(draft.turns[2]!.tool_call_id).toBeNull();
    expect(draft.turns[2]!.content).toMatch(/^Previous response had parsing errors:/);
    expect(draft.turns.flatMap((t) => t.tool_calls ?? []).map((c) => c.name)).toEqual([
      "bash_command",
      "mark_task_complete",
      "mark_task_complete",
    ]);
  });

  it.each(["ATIF-v1.0", "ATIF-v1.5"])("%s is read, unknown fields and all", (version) => {
    const doc = { ...(clone(readRealJson(ATIF)) as Obj), schema_version: version, a_field_from_the_future: [1] };
    expect(read(doc).draft.format).toBe(`atif-${version.slice(5)}`);
  });

  it("a newer schema_version is named, not read wrong", () => {
    const doc = { ...(clone(readRealJson(ATIF)) as Obj), schema_version: "ATIF-v2.0" };
    expect(detectFormat(doc)).toBeNull();
    expect(unknownFormat(doc)).toBe(
      'unknown format: this resembles Harbor ATIF, but its schema_version "ATIF-v2.0" is not one the importer reads ' +
        "(ATIF-v1.0 to ATIF-v1.7)",
    );
    const { schema_version: _, ...unversioned } = doc;
    expect(unknownFormat(unversioned)).toMatch(/resembles Harbor ATIF, but it has no schema_version/);
  });
});

describe("Moatless", () => {
  it("each action of each state is a step: the state's name, its request, the response as output", () => {
    const { format, draft, steps } = read(
      readRealJson("moatless/moatless__claude-3.5-sonnet__scikit-learn__scikit-learn-13439.trajectory.json"),
    );
    expect(format).toBe("moatless");
    expect(draft.taskId).toBe("scikit-learn__scikit-learn-13439");
    expect(steps.stepCount).toBe(5);
    const calls = draft.turns.flatMap((t) => t.tool_calls ?? []);
    expect(calls.map((c) => c.name)).toEqual([
      "SearchCode",
      "IdentifyCode",
      "DecideRelevance",
      "PlanToCode",
      "ClarifyCodeChange",
    ]);
    expect(Object.keys(calls[3]!.input as Obj)).toEqual(["action", "instructions", "file_path", "span_id"]);
    expect(draft.turns[1]!.reasoning).toMatch(/^To address the issue of implementing __len__/);
    expect(draft.turns[2]!.content).toMatch(/^did_search\n/);
    expect(draft.turns[0]!.content).toMatch(/^Pipeline should implement __len__/);
    expect(draft.patch).toMatch(/^diff --git a\/sklearn\/pipeline.py/);
    expect(draft.condition?.model).toBe("claude-3-5-sonnet-20240620");
  });
});

describe("Inspect AI samples", () => {
  const browser = readRealJson("inspect/inspect_ai__2025-05-12T20-27-36-04-00_browser.json") as Obj & {
    samples: Obj[];
  };

  it("a sample's messages: calls by function and arguments, tool answers by id, the score as resolved", () => {
    const draft = readInspectSample(browser.samples[0], inspectEval(browser));
    expect(draft.taskId).toBe("1");
    expect(draft.condition).toEqual({ benchmark: "browser", model: "openai/gpt-4o-mini", run: 1 });
    // user, then four assistant turns with a call each and their answers, then the final answer.
    expect(draft.turns.map((t) => t.role).join(" ")).toBe(
      "user assistant tool assistant tool assistant tool assistant tool assistant",
    );
    const first = draft.turns[1]!.tool_calls![0]!;
    expect(first).toMatchObject({ name: "web_browser_go", input: { url: "https://www.aisi.gov.uk/" } });
    expect(draft.turns[2]!.tool_call_id).toBe(first.id);
    expect(draft.resolved).toBe(true); // the "includes" scorer says "C"
  });

  it("attachment:// references are replaced by the attachment", () => {
    const sample = clone(browser.samples[0]!) as Obj & { messages: Obj[] };
    const text = sample.messages[2]!.content as string;
    sample.messages[2]!.content = "attachment://0123abcd";
    sample.attachments = { "0123abcd": text };
    expect(readInspectSample(sample, inspectEval(browser)).turns[2]!.content).toBe(text);
  });

  it("a sample saved without messages is rebuilt from its last model event and the message pool", () => {
    const m = (role: string, content: string, extra: Obj = {}) => ({ role, content, ...extra });
    const call = { id: "c1", function: "bash", arguments: { cmd: "git log --all" } };
    const sample = {
      id: "django__django-1",
      epoch: 2,
      messages: [],
      events_data: {
        messages: [
          m("system", "s"),
          m("user", "fix it"),
          m("assistant", "", { tool_calls: [call] }),
          m("tool", "abc", { tool_call_id: "c1" }),
        ],
        calls: [],
      },
      events: [
        {
          event: "model",
          input: [],
          input_refs: [[0, 2]],
          output: { choices: [{ message: m("assistant", "", { tool_calls: [call] }) }] },
        },
        { event: "model", input: [], input_refs: [[0, 4]], output: { choices: [{ message: m("assistant", "done") }] } },
      ],
      scores: { swe: { value: "I" } },
    };
    const draft = readInspectSample(sample, inspectEval({ eval: { task: "swe_bench", model: "m" } }));
    expect(draft.turns.map((t) => t.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    expect(draft.turns[2]!.tool_calls).toEqual([{ id: "c1", name: "bash", input: "git log --all" }]);
    expect(draft.condition).toEqual({ benchmark: "swe_bench", model: "m", run: 2 });
    expect(draft.resolved).toBe(false);
  });

  it.each([
    [{ a: { value: 1 } }, true],
    [{ a: { value: 0 } }, false],
    [{ a: { value: 0.5 } }, null],
    [{ a: { value: "partial" }, b: { value: false } }, false],
    [{ a: { value: "C" } }, true],
    [null, null],
  ])("scores %j say resolved %s", (scores, expected) => expect(scoreResolved(scores)).toBe(expected));
});

describe("detection names what a near miss differs in", () => {
  it.each([
    [
      { trajectory_format: "swe-agent-2", messages: [] },
      /resembles mini-swe-agent, but its trajectory_format "swe-agent-2"/,
    ],
    [
      { messages: [], info: { config: {} }, instance_id: "a__b-1" },
      /resembles mini-swe-agent, but it has no trajectory_format/,
    ],
    [{ trajectory: [], info: {} }, /resembles SWE-agent .traj, but it has no history list/],
    [{ history: [] }, /resembles OpenHands output.jsonl, but it names no instance_id/],
    [{ transitions: [] }, /resembles Moatless, but it has no initial_message/],
    [{ eval: {} }, /resembles an Inspect AI log, but it has no samples/],
    [{ foo: 1, bar: 2 }, /^unknown format: an object with the keys foo, bar; expected the app's own records/],
  ])("%j", (doc, message) => {
    expect(detectFormat(doc)).toBeNull();
    expect(unknownFormat(doc)).toMatch(message);
  });
});
