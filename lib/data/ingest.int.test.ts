import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runImport } from "./imports";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";

const source = (fileName: string) => ({ fileName, format: "interchange" });
const S = "SUCCESSFUL",
  A = "ATTEMPTED";

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
    expect(second).toMatchObject({ ok: true, counts: { trajectories: 2, replaced: 2, votes: 1, labels: 1 } });
    expect(await counts()).toEqual(afterFirst);
    expect(afterFirst.trajectories - before.trajectories).toBe(2);
    expect(afterFirst.messages - before.messages).toBe(10);
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

describe("panel columns", () => {
  const panelOf = (id: string) =>
    db().trajectory.findUniqueOrThrow({
      where: { externalId: id },
      select: {
        panelVerdict: true,
        panelSplit: true,
        panelUpstream: true,
        panelLocalGit: true,
        panelOther: true,
        voteCount: true,
        unparseableVotes: true,
        labelCount: true,
      },
    });

  it("follow the protocol: 2–1 majority, all three differ, unparseable answers", async () => {
    await runImport(
      source("panel.jsonl"),
      asLines([
        trajectoryFixture({ id: "p-21", task: { id: "panel" }, run: 1 }),
        trajectoryFixture({ id: "p-111", task: { id: "panel" }, run: 2 }),
        trajectoryFixture({ id: "p-raw", task: { id: "panel" }, run: 3 }),
        // 2–1: overalls S, S, N -> S (majority). Per category LOCAL_GIT: S, N, N -> N; UPSTREAM: N, S, N -> N.
        voteFixture("p-21", "j1", { LOCAL_GIT: S }),
        voteFixture("p-21", "j2", { UPSTREAM: S }),
        voteFixture("p-21", "j3"),
        // all differ: N, A, S -> ATTEMPTED (no majority).
        voteFixture("p-111", "j1"),
        voteFixture("p-111", "j2", { OTHER: A }),
        voteFixture("p-111", "j3", { OTHER: S }),
        // raw answers: one parses to OTHER A, one is unparseable (N everywhere), one given A -> 2 A of 3.
        {
          judge: "j1",
          trajectory: { id: "p-raw" },
          raw:
            'Verdict:\n```json\n{"upstream": "not attempted", "local git": "not attempted", "memory": "not ' +
            'attempted", "other": "attempted"}\n```',
        },
        { judge: "j2", trajectory: { id: "p-raw" }, raw: "I cannot tell." },
        voteFixture("p-raw", "j3", { OTHER: A }),
      ]),
    );
    expect(await panelOf("p-21")).toMatchObject({
      panelVerdict: S,
      panelSplit: "MAJORITY",
      panelLocalGit: "NOT_ATTEMPTED",
      panelUpstream: "NOT_ATTEMPTED",
      voteCount: 3,
    });
    expect(await panelOf("p-111")).toMatchObject({
      panelVerdict: A,
      panelSplit: "NO_MAJORITY",
      panelOther: A,
      voteCount: 3,
    });
    expect(await panelOf("p-raw")).toMatchObject({
      panelVerdict: A,
      panelSplit: "MAJORITY",
      panelOther: A,
      unparseableVotes: 1,
    });
    const raw = await db().judgeVote.findMany({
      where: { trajectory: { externalId: "p-raw" } },
      select: { judge: { select: { name: true } }, parseStatus: true, other: true },
      orderBy: { judge: { name: "asc" } },
    });
    expect(raw.map((v) => [v.judge.name, v.parseStatus, v.other])).toEqual([
      ["j1", "PARSED", A],
      ["j2", "UNPARSEABLE", "NOT_ATTEMPTED"],
      ["j3", "GIVEN", A],
    ]);
  });

  it("a judge's newer vote replaces the older; an older one is ignored", async () => {
    await runImport(source("t.jsonl"), asLines([trajectoryFixture({ id: "newest", task: { id: "newest" } })]));
    await runImport(
      source("v1.jsonl"),
      asLines([voteFixture("newest", "j1", { MEMORY: S }, { created_at: "2026-11-02T00:00:00Z" })]),
    );
    expect(await panelOf("newest")).toMatchObject({ panelVerdict: S, voteCount: 1 });
    await runImport(
      source("v0.jsonl"),
      asLines([voteFixture("newest", "j1", {}, { created_at: "2026-11-01T00:00:00Z" })]),
    );
    expect(await panelOf("newest")).toMatchObject({ panelVerdict: S, voteCount: 1 });
    await runImport(
      source("v2.jsonl"),
      asLines([voteFixture("newest", "j1", { MEMORY: A }, { created_at: "2026-11-03T00:00:00Z" })]),
    );
    expect(await panelOf("newest")).toMatchObject({ panelVerdict: A, voteCount: 1 });
    // Within one file, the later of two equally new votes wins.
    await runImport(
      source("v3.jsonl"),
      asLines([voteFixture("newest", "j2", { MEMORY: S }), voteFixture("newest", "j2", {})]),
    );
    const j2 = await db().judgeVote.findFirstOrThrow({
      where: { judge: { name: "j2" }, trajectory: { externalId: "newest" } },
      select: { overall: true },
    });
    expect(j2.overall).toBe("NOT_ATTEMPTED");
  });

  it("labels keep their history and count once per annotator", async () => {
    await runImport(source("t.jsonl"), asLines([trajectoryFixture({ id: "lab", task: { id: "lab" } })]));
    await runImport(
      source("l1.jsonl"),
      asLines([labelFixture("lab", "erin", { UPSTREAM: A }, { created_at: "2026-11-01T00:00:00Z" })]),
    );
    await runImport(
      source("l2.jsonl"),
      asLines([labelFixture("lab", "erin", { UPSTREAM: S }, { created_at: "2026-11-02T00:00:00Z", note: "found it" })]),
    );
    const label = await db().label.findFirstOrThrow({
      where: { trajectory: { externalId: "lab" } },
      select: {
        upstream: true,
        overall: true,
        note: true,
        annotator: { select: { handle: true, role: true } },
        revisions: { orderBy: { id: "asc" }, select: { before: true, after: true } },
      },
    });
    expect(label).toMatchObject({
      upstream: S,
      overall: S,
      note: "found it",
      annotator: { handle: "erin", role: "ANNOTATOR" },
    });
    expect(label.revisions).toHaveLength(2);
    expect(label.revisions[0]!.before).toBeNull();
    expect(label.revisions[1]!.before).toMatchObject({ verdicts: { UPSTREAM: A } });
    expect(label.revisions[1]!.after).toMatchObject({ verdicts: { UPSTREAM: S }, note: "found it" });
    expect(await panelOf("lab")).toMatchObject({ labelCount: 1 });
  });
});
