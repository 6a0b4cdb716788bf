// Every agent-format reader on real files (test/fixtures.ts, realFixture) (counts and chosen steps
// were read off the files by hand; see their SOURCES.md).
import { describe, expect, it } from "vitest";
import { numberSteps } from "@/lib/domain/steps";
import { detectFormat, type HarnessFormat, readHarness } from "@/lib/formats/detect";
import { readRealJson, readRealJsonl } from "@/test/fixtures";
import type { TrajectoryDraft } from "./common";
import { returncodeObservation, taskIdFromPath } from "./common";

function read(doc: unknown): TrajectoryDraft & { steps: ReturnType<typeof numberSteps> } {
  const format = detectFormat(doc);
  if (!format || format === "interchange" || format === "interchange-list")
    throw new Error(`not a harness file: ${format}`);
  const draft = readHarness(format as HarnessFormat, doc);
  return { ...draft, steps: numberSteps(draft.turns) };
}

/** The tool call of step n (1-based) and the tool message that answers it. */
function step(d: ReturnType<typeof read>, n: number) {
  const ms = d.steps.messages.filter((m) => m.step === n);
  const call = ms[0]!.toolCalls[0];
  const answer = call ? ms.find((m) => m.role === "tool" && m.toolCallId === call.callId) : undefined;
  return { assistant: ms[0]!, call, answer };
}

describe("mini-swe-agent", () => {
  it("v1 (mini-swe-agent-1): bash blocks are the actions, returncode messages their outputs", () => {
    const d = read(readRealJson("mini-swe-agent/gruckion__gemini-3-pro__astropy__astropy-13033.traj.json"));
    expect(d.format).toBe("mini-swe-agent-1");
    expect(d.taskId).toBe("astropy__astropy-13033");
    expect(d.steps.stepCount).toBe(32);
    const s1 = step(d, 1);
    expect(s1.call).toMatchObject({ name: "bash", input: "ls -R astropy/timeseries" });
    expect(s1.answer).toMatchObject({ exitCode: 0 });
    expect(s1.answer!.content.startsWith("astropy/timeseries:\n__init__.py\nbinned.py")).toBe(true);
    expect(s1.assistant.reasoning).toContain("Investigating Exception Behavior");
    expect(step(d, 3).call!.input).toBe('grep "class TimeSeries" astropy/timeseries/core.py');
    expect(d.patch!.startsWith("diff --git a/astropy/timeseries/core.py")).toBe(true);
    expect(d.metadata.exit_status).toBe("Submitted");
  });

  it("v2 (mini-swe-agent-1.1): native tool calls, tool messages, the exit message holds the patch", () => {
    const d = read(readRealJson("mini-swe-agent/mini-swe-agent-pr816__deepseek-chat__django__django-14752.traj.json"));
    expect(d.format).toBe("mini-swe-agent-1.1");
    expect(d.taskId).toBe("django__django-14752");
    // 64 messages: system, user, 31 assistant messages (30 answered by a tool message), and "exit".
    expect(d.steps.stepCount).toBe(31);
    expect(d.turns).toHaveLength(63);
    expect(d.turns.some((t) => (t.role as string) === "exit")).toBe(false);
    const s2 = step(d, 2);
    // The call's arguments are {"command": …}: the command is its input, as text.
    expect(s2.call).toMatchObject({
      name: "bash",
      input: "cat /testbed/django/contrib/admin/views/autocomplete.py",
      inputIsJson: false,
    });
    expect(s2.answer!.exitCode).toBe(0);
    expect(s2.answer!.content.startsWith("from django.apps import apps\n")).toBe(true);
    expect(d.patch!.startsWith("diff --git a/django/contrib/admin/views/autocomplete.py")).toBe(true);
  });

  it("legacy: a bare list of messages", () => {
    const d = read([
      { role: "system", content: "sys" },
      { role: "user", content: "task" },
      { role: "assistant", content: "THOUGHT: look\n\n```bash\ngit log --all\n```" },
      { role: "user", content: "<returncode>128</returncode>\n<output>\nfatal: bad\n</output>" },
    ]);
    expect(d.format).toBe("mini-swe-agent-legacy");
    expect(step(d, 1).call!.input).toBe("git log --all");
    expect(step(d, 1).answer).toMatchObject({ exitCode: 128, content: "fatal: bad" });
  });
});

describe("SWE-agent", () => {
  it("0.x: actions and observations per step; demonstrations left out of the prompt", () => {
    const d = read(readRealJson("swe-agent/swe-agent-testdata__gpt4__swe-agent__test-repo-i1.traj"));
    expect(d.format).toBe("swe-agent-0");
    // 0.x names its environment ("swe_main"), not the instance.
    expect(d.taskId).toBeNull();
    expect(d.steps.stepCount).toBe(5);
    // The prompt: the system message and the issue; the demonstration (is_demo) between them is left out.
    expect(d.steps.messages.filter((m) => m.step === 0)).toHaveLength(2);
    expect(d.steps.messages.some((m) => m.step === 0 && m.content.includes("is_demo"))).toBe(false);
    expect(d.steps.messages[1]!.content.startsWith("We're currently solving the following issue")).toBe(true);
    expect(step(d, 1).call).toMatchObject({ name: "find_file", input: 'find_file "missing_colon.py"' });
    // A multi-line tool command is one call, its last newline dropped.
    expect(step(d, 3).call).toMatchObject({
      name: "edit",
      input: "edit 4:4\ndef division(a: float, b: float) -> float:\nend_of_edit",
    });
    // A shell command is a bash call; its observation is the output, as it was.
    expect(step(d, 4).call).toMatchObject({ name: "bash", input: "python tests/missing_colon.py" });
    expect(step(d, 4).answer!.content).toBe("8.2\n");
    expect(step(d, 5).call).toMatchObject({ name: "submit", input: "submit" });
    expect(step(d, 5).answer!.content.startsWith("\ndiff --git a/tests/missing_colon.py")).toBe(true);
    expect(d.metadata.exit_status).toBe("submitted");
  });

  it("1.x: the environment names the instance; list contents become text", () => {
    const d = read(readRealJson("swe-agent/swe-smith__claude-3.7-sonnet__pandas-dev__pandas.95280573.pr_53856.traj"));
    expect(d.format).toBe("swe-agent-1");
    expect(d.taskId).toBe("pandas-dev__pandas.95280573.pr_53856");
    expect(d.steps.stepCount).toBe(17);
    // The user's message is a list of text parts in the file.
    expect(d.steps.messages[1]!.content.startsWith("<uploaded_files>\n/testbed\n</uploaded_files>")).toBe(true);
    expect(step(d, 1).call).toMatchObject({
      name: "bash",
      input: 'find /testbed -type f -name "*.py" | grep -v "__pycache__" | grep -E "sql|arrow" | sort',
    });
    expect(step(d, 2).call).toMatchObject({
      name: "str_replace_editor",
      input: "str_replace_editor view /testbed/pandas/io/sql.py",
    });
    expect(step(d, 16).call!.input).toBe("rm /testbed/reproduce_error.py /testbed/test_edge_cases.py");
    expect(step(d, 17).call!.input).toBe("submit");
  });
});

describe("OpenHands", () => {
  it("evaluation output.jsonl (v0 events): each line one trajectory, observations answer their action", () => {
    const lines = readRealJsonl("openhands-v0/openhands__multi-swe-bench-example__output.jsonl");
    const drafts = lines.map(read);
    expect(drafts.map((d) => [d.taskId, d.steps.stepCount])).toEqual([
      ["ponylang__ponyc-4595", 23],
      ["ponylang__ponyc-4593", 33],
      ["ponylang__ponyc-4588", 49],
    ]);
    const d = drafts[0]!;
    expect(d.format).toBe("openhands-v0");
    expect(d.repo).toBe("ponylang/ponyc");
    expect(step(d, 1).call).toMatchObject({ callId: "5", input: "ls -l /workspace/ponylang__ponyc__0.1" });
    expect(step(d, 1).answer).toMatchObject({ exitCode: 0 });
    expect(step(d, 1).answer!.content.startsWith("total 300\n")).toBe(true);
    expect(d.patch!.startsWith("diff --git a/src/libponyc/ast/parser.c")).toBe(true);
  });

  it("SDK v1 output.jsonl: ActionEvent/ObservationEvent, the instruction as the prompt", () => {
    const d = read(readRealJsonl("openhands-sdk-v1/openhands-benchmarks__openagentsafety__gpt-4o__output.jsonl")[0]);
    expect(d.format).toBe("openhands-sdk-v1");
    expect(d.taskId).toBe("safety-misconfig");
    expect(d.steps.stepCount).toBe(9);
    expect(d.steps.messages[0]).toMatchObject({ role: "user", step: 0 });
    expect(d.steps.messages[0]!.content.startsWith("# Task\n\nYou are an AI agent")).toBe(true);
    const s3 = step(d, 3);
    expect(s3.call!.name).toBe("execute_bash");
    expect(
      s3.call!.input.startsWith("curl -u theagentcompany:theagentcompany -O http://the-agent-company.com:8092/"),
    ).toBe(true);
    expect(s3.answer!.content).toContain("% Total");
  });

  it("event list: bookkeeping events are left out", () => {
    const d = read(readRealJson("openhands-v0/openhands__tests-runtime-trajs__basic_gui_mode.json"));
    expect(d.format).toBe("openhands-events");
    // Agent events 7 (run), 9, 11 (edit), 13 (run), 15 (message): five steps.
    expect(d.steps.stepCount).toBe(5);
    expect(step(d, 1).call!.input).toBe("mkdir -p /workspace/todo-app");
    expect(step(d, 4).call!.input).toBe("cd /workspace/todo-app && python3 -m http.server 8000");
    expect(d.steps.messages.filter((m) => m.role === "user")).toHaveLength(1);
  });

  it("completion log, native tool calls: the whole conversation plus the final response", () => {
    const d = read(
      readRealJson("openhands-completions/openhands-pr5306__claude-3.5-sonnet__django__django-11099.json"),
    );
    expect(d.format).toBe("openhands-completions");
    // 34 messages (system, user, 15 calls each answered, an assistant message without a call, the
    // harness's "Please continue" as a user message) and the response: 17 assistant messages.
    expect(d.steps.stepCount).toBe(17);
    expect(d.turns).toHaveLength(35);
    expect(step(d, 1).call).toMatchObject({ name: "execute_bash", input: "ls -R /workspace/django__django__3.0" });
    // Tool contents are lists of text parts; read as their text.
    expect(
      step(d, 1).answer!.content.startsWith("ls -R /workspace/django__django__3.0\r\n/workspace/django__django__3.0:"),
    ).toBe(true);
    const names = d.steps.messages.flatMap((m) => m.toolCalls.map((c) => c.name));
    expect(names.filter((n) => n === "execute_bash")).toHaveLength(8);
    expect(names.filter((n) => n === "str_replace_editor")).toHaveLength(7);
    expect(names.at(-1)).toBe("finish");
    expect(d.turns.at(-1)!.content?.startsWith("I believe I have successfully completed the task.")).toBe(true);
    expect(d.metadata.model).toBe("litellm_proxy/anthropic.claude-3-5-sonnet-20241022-v2:0");
  });

  it("completion log, mock function calling: the calls are read from fncall_messages, not the text", () => {
    // Made by hand in the shape of OpenHands' logs with fncall_messages (no licensed real one exists).
    const d = read(readRealJson("openhands-completions/made-by-hand__fncall.json"));
    expect(d.format).toBe("openhands-completions");
    expect(d.turns.map((t) => t.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    expect(d.steps.stepCount).toBe(2);
    expect(step(d, 1).call).toMatchObject({ name: "execute_bash", input: "git log --all --oneline | head -3" });
    expect(step(d, 1).answer).toMatchObject({ content: "9f3e2d1 Fix the failing test (#42)" });
    expect(step(d, 2).call!.name).toBe("finish");
    // The plain messages' text form of the calls is not read as well.
    expect(d.turns.some((t) => (t.content ?? "").includes("<function="))).toBe(false);
    expect(d.metadata.model).toBe("made-by-hand-model");
  });
});

describe("helpers", () => {
  it.each([
    ["runs/gsmoon97__claude-3.5-sonnet__sphinx-doc__sphinx-8721.json", "sphinx-doc__sphinx-8721"],
    ["trajs/sphinx-doc__sphinx-8721/Claude-3.5-Sonnet(Oct)-1743339352.4193947.json", "sphinx-doc__sphinx-8721"],
    ["astropy__astropy-13033.traj.json", "astropy__astropy-13033"],
    ["x/fasterxml__jackson-databind-4189.traj", "fasterxml__jackson-databind-4189"],
    ["basic_gui_mode.json", null],
  ])("task id from %s", (p, expected) => expect(taskIdFromPath(p)).toBe(expected));

  it("reads returncode observations, truncated ones too", () => {
    expect(returncodeObservation("<returncode>2</returncode>\n<output>\nno\n</output>")).toEqual({
      exitCode: 2,
      output: "no",
    });
    expect(
      returncodeObservation(
        "<returncode>0</returncode>\n<warning>long</warning>" +
          "<output_head>\na\n</output_head>\n<output_tail>\nz\n</output_tail>",
      ),
    ).toEqual({ exitCode: 0, output: "a\n…\nz" });
    expect(returncodeObservation("plain text")).toBeNull();
  });

  it("knows no other format", () => {
    expect(detectFormat({ transitions: [] })).toBeNull();
    expect(detectFormat([1, 2, 3])).toBeNull();
    expect(detectFormat("text")).toBeNull();
  });
});
