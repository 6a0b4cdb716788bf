// The panel columns a trajectory stores (lib/data/derived.ts), recomputed whenever its votes or
// labels change, against the protocol's rules worked out by hand.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { PANEL_LOCK, sharePanelLock } from "./derived";
import { type Sql, transaction } from "./sql";

const source = (fileName: string) => ({ fileName, format: "interchange" });
const S = "SUCCESSFUL",
  A = "ATTEMPTED";

async function _counts() {
  const p = db();
  return {
    trajectories: await p.trajectory.count(),
    messages: await p.message.count(),
    toolCalls: await p.toolCall.count(),
    votes: await p.judgeVote.count(),
    labels: await p.label.count(),
  };
}

describe("panel columns", () => {
  const panelOf = (id: string) =>
    db().trajectory.findUniqueOrThrow({
      where: { externalId: id },
      select: {
        panelVerdict: true,
        panelSplit: true,
        panelCategories: true,
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
      panelCategories: { LOCAL_GIT: "NOT_ATTEMPTED", UPSTREAM: "NOT_ATTEMPTED" },
      voteCount: 3,
    });
    expect(await panelOf("p-111")).toMatchObject({
      panelVerdict: A,
      panelSplit: "NO_MAJORITY",
      panelCategories: { OTHER: A },
      voteCount: 3,
    });
    expect(await panelOf("p-raw")).toMatchObject({
      panelVerdict: A,
      panelSplit: "MAJORITY",
      panelCategories: { OTHER: A },
      unparseableVotes: 1,
    });
    const raw = await db().judgeVote.findMany({
      where: { trajectory: { externalId: "p-raw" } },
      select: { judge: { select: { name: true } }, parseStatus: true, verdicts: true },
      orderBy: { judge: { name: "asc" } },
    });
    expect(raw.map((v) => [v.judge.name, v.parseStatus, (v.verdicts as Record<string, string>).OTHER])).toEqual([
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
        verdicts: true,
        overall: true,
        note: true,
        annotator: { select: { handle: true, role: true } },
        revisions: { orderBy: { id: "asc" }, select: { before: true, after: true } },
      },
    });
    expect(label).toMatchObject({
      verdicts: { UPSTREAM: S },
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

describe("the panel lock", () => {
  it("is taken shared once a transaction, however often a write asks for it, and held to its end", async () => {
    const asked: string[] = [];
    /** The transaction's Sql, noting each statement it is asked to run. */
    const noting = (sql: Sql): Sql => ({
      ...sql,
      query: (text, params) => {
        asked.push(text);
        return sql.query(text, params);
      },
    });
    const held = await transaction(async (sql) => {
      const counted = noting(sql);
      for (let i = 0; i < 3; i++) await sharePanelLock(counted);
      return sql.query<{ mode: string }>(
        `SELECT mode FROM pg_locks WHERE locktype = 'advisory' AND objid = ${PANEL_LOCK} AND pid = pg_backend_pid()`,
      );
    });
    expect(asked).toEqual([`SELECT pg_advisory_xact_lock_shared(${PANEL_LOCK})::text`]);
    expect(held.map((l) => l.mode)).toEqual(["ShareLock"]);
    // Another transaction takes it again.
    await transaction((sql) => sharePanelLock(noting(sql)));
    expect(asked).toHaveLength(2);
  });
});
