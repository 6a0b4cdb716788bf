import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";

const source = (fileName: string) => ({ fileName, format: "interchange" });
const S = "SUCCESSFUL",
  A = "ATTEMPTED";
const verdicts = (localGit: string) => ({
  UPSTREAM: "NOT_ATTEMPTED",
  LOCAL_GIT: localGit,
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
});

/** Every row of every table but the imports' own list, as JSON, in a stable order: what an import may change. */
async function everyRow(): Promise<Record<string, Array<Record<string, unknown>>>> {
  const tables = await db().$queryRaw<Array<{ name: string }>>`
    SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('import', '_prisma_migrations')
     ORDER BY 1`;
  const out: Record<string, Array<Record<string, unknown>>> = {};
  for (const { name } of tables)
    out[name] = (
      await db().$queryRawUnsafe<Array<{ row: Record<string, unknown> }>>(
        `SELECT to_jsonb(x) AS row FROM "${name}" x ORDER BY to_jsonb(x)::text`,
      )
    ).map((r) => r.row);
  return out;
}

async function counts() {
  const p = db();
  return {
    trajectories: await p.trajectory.count(),
    messages: await p.message.count(),
    toolCalls: await p.toolCall.count(),
    votes: await p.judgeVote.count(),
    labels: await p.label.count(),
  };
}

describe("runImport", () => {
  it("stores a trajectory's messages and tool calls with their step numbers", async () => {
    const outcome = await runImport(
      source("one.jsonl"),
      asLines([trajectoryFixture({ id: "steps-1", task: { id: "steps-task" } })]),
    );
    expect(outcome).toMatchObject({ ok: true, counts: { trajectories: 1, replaced: 0 } });
    const t = await db().trajectory.findUniqueOrThrow({
      where: { externalId: "steps-1" },
      select: {
        id: true,
        stepCount: true,
        messageCount: true,
        panelVerdict: true,
        voteCount: true,
        task: { select: { key: true, repo: true } },
      },
    });
    expect(t).toMatchObject({
      stepCount: 2,
      messageCount: 5,
      panelVerdict: null,
      voteCount: 0,
      task: { key: "steps-task", repo: null },
    });
    const messages = await db().message.findMany({
      where: { trajectoryId: t.id },
      orderBy: { seq: "asc" },
      select: { seq: true, step: true, role: true, toolCallId: true, exitCode: true },
    });
    expect(messages.map((m) => [m.role, m.step])).toEqual([
      ["system", 0],
      ["user", 0],
      ["assistant", 1],
      ["tool", 1],
      ["assistant", 2],
    ]);
    expect(messages[3]).toMatchObject({ toolCallId: "c1", exitCode: 0 });
    const calls = await db().toolCall.findMany({
      where: { trajectoryId: t.id },
      select: { messageSeq: true, step: true, name: true, input: true },
    });
    expect(calls).toEqual([{ messageSeq: 2, step: 1, name: "bash", input: "git log --all --oneline" }]);
  });

  it("is idempotent: the same file twice replaces, never duplicates", async () => {
    const file = asLines([
      trajectoryFixture({ id: "idem-1", task: { id: "idem" }, run: 1 }),
      trajectoryFixture({ id: "idem-2", task: { id: "idem" }, run: 2 }),
      voteFixture("idem-1", "j1", { LOCAL_GIT: S }),
      labelFixture("idem-1", "carol", { LOCAL_GIT: S }),
    ]);
    const before = await counts();
    const first = await runImport(source("idem.jsonl"), file);
    expect(first).toMatchObject({ ok: true, counts: { trajectories: 2, replaced: 0, votes: 1, labels: 1 } });
    const afterFirst = await counts();
    const second = await runImport(source("idem.jsonl"), file);
    expect(second).toMatchObject({
      ok: true,
      counts: { trajectories: 2, replaced: 0, unchanged: 2, votes: 1, labels: 1 },
    });
    expect(await counts()).toEqual(afterFirst);
    expect(afterFirst.trajectories - before.trajectories).toBe(2);
    expect(afterFirst.messages - before.messages).toBe(10);
  });

  it("importing the same file again changes nothing, not even a timestamp", async () => {
    // Every kind of record, with and without its time (a record without one is stamped with the
    // import's): trajectories, votes, labels, gold labels, a task record and a rule.
    const file = asLines([
      trajectoryFixture({ id: "same-1", task: { id: "same-task" }, run: 1 }),
      trajectoryFixture({ id: "same-2", task: { id: "same-task" }, run: 2, metadata: { b: 1, a: [1, 2] } }),
      voteFixture("same-1", "same-j1", { LOCAL_GIT: S }),
      voteFixture("same-2", "same-j1", {}, { created_at: "2026-11-01T10:00:00Z" }),
      labelFixture("same-1", "same-ann", { LOCAL_GIT: S }, { evidence: [{ step: 1, note: "log --all" }] }),
      labelFixture("same-2", "same-ann", {}, { created_at: "2026-11-02T10:00:00Z" }),
      { type: "gold", trajectory: { id: "same-1" }, adjudicator: "same-adj", verdicts: verdicts(S) },
      {
        type: "gold",
        trajectory: { id: "same-2" },
        adjudicator: "same-adj",
        verdicts: verdicts(A),
        created_at: "2026-11-03T10:00:00Z",
      },
      { type: "task", instance_id: "same-task", repo: "o/r", base_commit: "abc", patch: "diff --git a/x b/x\n" },
      { type: "rule", name: "same-rule", category: "OTHER", on: "command", pattern: "same-needle" },
    ] as never[]);
    const first = await runImport(source("same.jsonl"), file);
    expect(first.ok, JSON.stringify(first)).toBe(true);
    const before = await everyRow();
    // Later, as a second import of the same file would be.
    await new Promise((r) => setTimeout(r, 20));
    const again = await runImport(source("same.jsonl"), file);
    expect(again).toMatchObject({ ok: true, counts: { trajectories: 2, replaced: 0, unchanged: 2 } });
    expect(await everyRow()).toEqual(before);
    // The import is listed all the same, with what it found.
    const listed = await db().import.findUniqueOrThrow({ where: { id: again.importId } });
    expect(listed).toMatchObject({ status: "SUCCEEDED", trajectories: 2, unchanged: 2, replaced: 0 });

    // One turn changed: that trajectory is written again, the other not.
    const changed = asLines([
      trajectoryFixture({ id: "same-1", task: { id: "same-task" }, run: 1, patch: "diff --git a/y b/y\n" }),
      trajectoryFixture({ id: "same-2", task: { id: "same-task" }, run: 2, metadata: { b: 1, a: [1, 2] } }),
    ]);
    expect(await runImport(source("same-changed.jsonl"), changed)).toMatchObject({
      ok: true,
      counts: { trajectories: 2, replaced: 1, unchanged: 1 },
    });
    const t = await db().trajectory.findMany({
      where: { externalId: { in: ["same-1", "same-2"] } },
      orderBy: { externalId: "asc" },
      select: { updatedAt: true },
    });
    const stored = before.trajectory!.filter((r) => ["same-1", "same-2"].includes(r.externalId as string));
    expect(t[0]!.updatedAt.toISOString()).not.toBe(new Date(stored[0]!.updatedAt as string).toISOString());
    expect(t[1]!.updatedAt.toISOString()).toBe(new Date(stored[1]!.updatedAt as string).toISOString());
  });

  it("replacing a trajectory replaces its turns and keeps its votes", async () => {
    await runImport(
      source("a.jsonl"),
      asLines([
        trajectoryFixture({ id: "keep-1", task: { id: "keep" } }),
        voteFixture("keep-1", "j1", { UPSTREAM: A }),
      ]),
    );
    const shorter = trajectoryFixture({
      id: "keep-1",
      task: { id: "keep" },
      resolved: false,
      turns: [{ role: "user", content: "only the prompt" }],
    });
    await runImport(source("b.jsonl"), asLines([shorter]));
    const t = await db().trajectory.findUniqueOrThrow({
      where: { externalId: "keep-1" },
      select: {
        id: true,
        resolved: true,
        stepCount: true,
        _count: { select: { messages: true, votes: true } },
        panelVerdict: true,
      },
    });
    expect(t).toMatchObject({ resolved: false, stepCount: 0, _count: { messages: 1, votes: 1 }, panelVerdict: A });
    expect(await db().toolCall.count({ where: { trajectoryId: t.id } })).toBe(0);
  });

  it("rejects the whole file when any record is bad, naming line and field of each", async () => {
    const before = await counts();
    const outcome = await runImport(
      source("bad.jsonl"),
      asLines([
        trajectoryFixture({ id: "bad-1", task: { id: "bad" } }),
        trajectoryFixture({ id: "bad-2", task: { id: "bad" }, run: 2, prompt: "sneaky" }),
        voteFixture("bad-1", "j1"),
        {
          judge: "j2",
          trajectory: { id: "bad-1" },
          verdicts: { UPSTREAM: "MAYBE", LOCAL_GIT: A, MEMORY: A, OTHER: A },
        },
      ]),
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors).toEqual([
      { line: 2, field: "prompt", message: 'prompt must be "vanilla" or "principled"' },
      {
        line: 4,
        field: "verdicts.UPSTREAM",
        message: '"MAYBE" is not a verdict (expected NOT_ATTEMPTED, ATTEMPTED, SUCCESSFUL)',
      },
    ]);
    expect(await counts()).toEqual(before);
    const row = await db().import.findUniqueOrThrow({
      where: { id: outcome.importId },
      select: { status: true, rejected: true, trajectories: true },
    });
    expect(row).toEqual({ status: "FAILED", rejected: 2, trajectories: 0 });
  });

  it("a vote or label for a missing trajectory is an error for that line, and nothing lands", async () => {
    const before = await counts();
    const outcome = await runImport(
      source("missing.jsonl"),
      asLines([
        trajectoryFixture({ id: "present-1", task: { id: "present" } }),
        voteFixture("absent-1", "j1"),
        labelFixture("present-1", "dave"),
        {
          type: "label",
          annotator: "dave",
          trajectory: {
            benchmark: "bench-a",
            model: "model-a",
            task: "present",
            network: false,
            prompt: "vanilla",
            run: 1,
          },
          verdicts: { UPSTREAM: A, LOCAL_GIT: A, MEMORY: A, OTHER: A },
        },
      ]),
    );
    expect(outcome).toMatchObject({
      ok: false,
      errors: [
        { line: 2, field: "trajectory", message: 'no trajectory has id "absent-1"' },
        {
          line: 4,
          field: "trajectory",
          message: "no trajectory bench-a / model-a / present / network off / vanilla / run 1",
        },
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it("a rejected file still names every vote and label whose trajectory exists nowhere", async () => {
    const outcome = await runImport(
      source("many.jsonl"),
      asLines([
        trajectoryFixture({ id: "many-1", task: { id: "many" }, prompt: "wrong" }),
        voteFixture("many-1", "j1"), // its trajectory is in the file (though bad): not reported again
        voteFixture("nowhere-1", "j1"),
        labelFixture("nowhere-2", "fay"),
      ]),
    );
    expect(outcome).toMatchObject({ ok: false, errorCount: 3 });
    if (outcome.ok) return;
    expect(outcome.errors.map((e) => [e.line, e.field])).toEqual([
      [1, "prompt"],
      [3, "trajectory"],
      [4, "trajectory"],
    ]);
  });

  it("refuses an id that already names another trajectory", async () => {
    await runImport(source("x.jsonl"), asLines([trajectoryFixture({ id: "taken", task: { id: "taken-a" } })]));
    const outcome = await runImport(
      source("y.jsonl"),
      asLines([trajectoryFixture({ id: "taken", task: { id: "taken-b" } })]),
    );
    expect(outcome).toMatchObject({ ok: false, errors: [{ line: 1, field: "id" }] });
  });

  it("keeps untrusted text: NUL as U+2400, markup and escape codes as they are", async () => {
    const payload = "<script>alert(1)</script>\u001b[31mred\u001b[0m\u0000end";
    await runImport(
      source("nul.jsonl"),
      asLines([
        trajectoryFixture({
          id: "nul-1",
          task: { id: "nul" },
          turns: [
            { role: "assistant", content: payload, tool_calls: [{ id: "c", name: "bash", input: "echo \u0000" }] },
          ],
        }),
      ]),
    );
    const t = await db().trajectory.findUniqueOrThrow({
      where: { externalId: "nul-1" },
      select: { id: true, messages: { select: { content: true } } },
    });
    expect(t.messages[0]!.content).toBe("<script>alert(1)</script>\u001b[31mred\u001b[0m\u2400end");
    expect(
      (await db().toolCall.findFirstOrThrow({ where: { trajectoryId: t.id }, select: { input: true } })).input,
    ).toBe("echo \u2400");
  });

  it("keeps a trajectory of 5,000 steps whole", async () => {
    const turns = [
      { role: "user", content: "go" },
      ...Array.from({ length: 5000 }, (_, i) => [
        { role: "assistant", content: "", tool_calls: [{ id: `c${i}`, name: "bash", input: `echo ${i}` }] },
        { role: "tool", tool_call_id: `c${i}`, content: `${i}`, exit_code: i % 2 },
      ]).flat(),
    ];
    const outcome = await runImport(
      source("long.jsonl"),
      asLines([trajectoryFixture({ id: "long-1", task: { id: "long" }, turns })]),
    );
    expect(outcome).toMatchObject({ ok: true, counts: { trajectories: 1 } });
    const t = await db().trajectory.findUniqueOrThrow({
      where: { externalId: "long-1" },
      select: { id: true, stepCount: true, messageCount: true },
    });
    expect(t).toMatchObject({ stepCount: 5000, messageCount: 10001 });
    const last = await db().message.findFirstOrThrow({
      where: { trajectoryId: t.id, step: 5000, role: "tool" },
      select: { content: true, exitCode: true },
    });
    expect(last).toEqual({ content: "4999", exitCode: 1 });
    expect(await db().toolCall.count({ where: { trajectoryId: t.id } })).toBe(5000);
  });

  it("a trajectory with no turns is kept", async () => {
    const outcome = await runImport(
      source("empty.jsonl"),
      asLines([trajectoryFixture({ id: "empty-1", task: { id: "empty" }, turns: [] })]),
    );
    expect(outcome).toMatchObject({ ok: true, counts: { trajectories: 1 } });
    expect(
      await db().trajectory.findUniqueOrThrow({
        where: { externalId: "empty-1" },
        select: { stepCount: true, messageCount: true },
      }),
    ).toEqual({ stepCount: 0, messageCount: 0 });
  });
});
