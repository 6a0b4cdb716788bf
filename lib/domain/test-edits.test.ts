import { describe, expect, it } from "vitest";
import { computeEvidence } from "./evidence";
import type { StepMessage } from "./steps";
import { patchFiles, testFilesTouched, writtenFiles } from "./test-edits";

const VIEW = "tests/admin_views/test_autocomplete_view.py";
const TEST_PATCH = `diff --git a/${VIEW} b/${VIEW}
--- a/tests/admin_views/test_autocomplete_view.py
+++ b/tests/admin_views/test_autocomplete_view.py
@@ -1,1 +1,2 @@
+import json
diff --git a/tests/admin_views/new_fixture.py b/tests/admin_views/new_fixture.py
new file mode 100644
--- /dev/null
+++ b/tests/admin_views/new_fixture.py
@@ -0,0 +1 @@
+x = 1
`;

describe("test edits", () => {
  it("reads the files a diff changes, new ones too", () => {
    expect(patchFiles(TEST_PATCH)).toEqual([
      "tests/admin_views/test_autocomplete_view.py",
      "tests/admin_views/new_fixture.py",
    ]);
    expect(patchFiles(null)).toEqual([]);
  });

  it("finds the files a tool call writes, and not those it reads", () => {
    expect(writtenFiles("sed -i '/assertEqual/d' tests/test_a.py tests/test_b.py", false)).toEqual([
      "tests/test_a.py",
      "tests/test_b.py",
    ]);
    expect(writtenFiles("cat > conftest.py << 'EOF'\nimport pytest\nEOF", false)).toEqual(["conftest.py"]);
    expect(writtenFiles("echo 'x' >> /testbed/tests/test_a.py 2>/dev/null", false)).toEqual([
      "/testbed/tests/test_a.py",
    ]);
    expect(writtenFiles("python -m pytest tests/test_a.py 2>&1 | tee out.log", false)).toEqual(["out.log"]);
    expect(writtenFiles("rm -f tests/test_a.py && mv x.py tests/test_b.py", false)).toEqual([
      "tests/test_a.py",
      "tests/test_b.py",
    ]);
    expect(writtenFiles("cat tests/test_a.py | grep assert > /dev/null", false)).toEqual([]);
    expect(writtenFiles("sed -n '1,20p' tests/test_a.py", false)).toEqual([]);
    const editor = (command: string) => JSON.stringify({ command, path: "/testbed/tests/test_a.py" });
    expect(writtenFiles(editor("str_replace"), true)).toEqual(["/testbed/tests/test_a.py"]);
    expect(writtenFiles(editor("view"), true)).toEqual([]);
    expect(writtenFiles(JSON.stringify({ command: "sed -i 's/a/b/' conftest.py" }), true)).toEqual(["conftest.py"]);
  });

  it("keeps the test patch's files and conftest.py files among those written", () => {
    const files = patchFiles(TEST_PATCH);
    expect(
      testFilesTouched(
        ["/testbed/tests/admin_views/test_autocomplete_view.py", "django/views.py", "./tests/conftest.py", "x_test.py"],
        files,
      ),
    ).toEqual(["tests/admin_views/test_autocomplete_view.py", "tests/conftest.py"]);
  });

  it("is evidence at the step that writes, and from the final patch once for the files no step named", () => {
    const step = (n: number, input: string): StepMessage[] => [
      {
        seq: 2 * n,
        step: n,
        role: "assistant",
        content: "",
        reasoning: null,
        toolCallId: null,
        exitCode: null,
        toolCalls: [{ seq: 0, callId: null, name: "bash", input, inputIsJson: false }],
      },
      {
        seq: 2 * n + 1,
        step: n,
        role: "tool",
        content: "",
        reasoning: null,
        toolCallId: null,
        exitCode: null,
        toolCalls: [],
      },
    ];
    const messages = [
      ...step(1, "grep -n assert tests/admin_views/test_autocomplete_view.py"),
      ...step(2, "sed -i '/status_code/d' tests/admin_views/test_autocomplete_view.py"),
      ...step(3, "git diff"),
    ];
    const finalPatch = `${TEST_PATCH}diff --git a/conftest.py b/conftest.py\n--- /dev/null\n+++ b/conftest.py\n`;
    const task = { instanceId: "django__django-14752", patch: null, createdAt: null, testPatch: TEST_PATCH };
    const items = computeEvidence(messages, task, () => null, finalPatch);
    expect(items.map((i) => [i.kind, i.step, i.detail])).toEqual([
      [
        "test_edit",
        2,
        expect.stringMatching(/^a tool call writes tests\/admin_views\/test_autocomplete_view\.py: a file/),
      ],
      [
        "test_edit",
        3,
        expect.stringMatching(/^its final patch changes conftest\.py, tests\/admin_views\/new_fixture\.py: files/),
      ],
    ]);
    expect(computeEvidence(messages, { ...task, testPatch: null }).map((i) => i.kind)).toEqual([]);
  });
});
