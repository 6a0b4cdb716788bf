import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture } from "@/prisma/factories";
import { rebuildSearchDocuments } from "./search-documents";
import { listTrajectories } from "./trajectories";

const source = (fileName: string) => ({ fileName, format: "interchange" });
const withCommand = (id: string, run: number, command: string, output = "ok") =>
  trajectoryFixture({
    id,
    benchmark: "sd",
    model: "sd-model",
    task: { id: "sd-task" },
    run,
    turns: [
      { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: command }] },
      { role: "tool", tool_call_id: "c", content: output },
    ],
  });
const found = async (q: string) =>
  (await listTrajectories({ benchmark: "sd", q })).rows.map((r) => r.run).sort((a, b) => a - b);
const documents = () => db().$queryRaw<Array<{ id: number; commands: string; outputs: string }>>`
  SELECT "trajectoryId" AS id, commands::text, outputs::text FROM trajectory_search ORDER BY 1`;
const documentCount = async () => (await documents()).length;

describe("search documents", () => {
  it("rebuilt from the stored messages, they are the documents the import wrote", async () => {
    const outcome = await runImport(
      source("sd-rebuild.jsonl"),
      asLines([
        withCommand("sd-1", 1, "git log --all --oneline", "commit 9f3e2d1 Fix the parser\nAuthor: someone"),
        withCommand(
          "sd-2",
          2,
          "curl -sL https://github.com/o/r/pull/9.diff | head",
          `<script>x</script> ${"é".repeat(400)}`,
        ),
        trajectoryFixture({
          id: "sd-3",
          benchmark: "sd",
          model: "sd-model",
          task: { id: "sd-task" },
          run: 3,
          turns: [],
        }),
      ]),
    );
    expect(outcome.ok).toBe(true);
    const imported = await documents();
    expect(imported.length).toBeGreaterThanOrEqual(3);
    await db().$executeRaw`DELETE FROM trajectory_search`;
    expect(await found("git log")).toEqual([]);
    const { built } = await rebuildSearchDocuments();
    expect(built).toBe(imported.length);
    expect(await documents()).toEqual(imported);
    expect(await found("git log")).toEqual([1]);
    expect(await found("pull/9.diff")).toEqual([2]);
    // Nothing left to build: a second run does nothing.
    expect(await rebuildSearchDocuments()).toEqual({ built: 0, swept: 0 });
  });

  it("a document naming no trajectory (left by an interrupted import) is swept", async () => {
    await db()
      .$executeRaw`INSERT INTO trajectory_search ("trajectoryId", commands, outputs) VALUES (2000000000, 'orphan', '')`;
    const before = await documentCount();
    expect(await rebuildSearchDocuments()).toEqual({ built: 0, swept: 1 });
    expect(await documentCount()).toBe(before - 1);
  });

  it("importing a trajectory again replaces its document: the new words are found, the old ones not", async () => {
    expect(
      (await runImport(source("sd-again-1.jsonl"), asLines([withCommand("sd-again", 10, "pip download alphapkg")]))).ok,
    ).toBe(true);
    expect(await found("alphapkg")).toEqual([10]);
    expect(
      (await runImport(source("sd-again-2.jsonl"), asLines([withCommand("sd-again", 10, "pip download betapkg")]))).ok,
    ).toBe(true);
    expect(await found("alphapkg")).toEqual([]);
    expect(await found("betapkg")).toEqual([10]);
  });

  // More than one batch (200 trajectories), so documents of new trajectories have been written on
  // PostgreSQL's side connection before the later record is read.
  const fillers = (prefix: string, from: number) =>
    Array.from({ length: 210 }, (_, i) => withCommand(`${prefix}-${i}`, from + i, "ls"));

  it("a trajectory created and then replaced within one file keeps the later record's document", async () => {
    const outcome = await runImport(
      source("sd-twice.jsonl"),
      asLines([
        withCommand("sd-twice", 100, "echo firstword"),
        ...fillers("sd-twice-fill", 101),
        withCommand("sd-twice", 100, "echo secondword"),
      ]),
    );
    // 212 records written, one of them replacing the first (counts are of records, as for any import).
    expect(outcome).toMatchObject({ ok: true, counts: { trajectories: 212, replaced: 1 } });
    expect(await found("firstword")).toEqual([]);
    expect(await found("secondword")).toEqual([100]);
  });

  it("a rejected file leaves no document behind, whichever connection wrote it", async () => {
    const before = { documents: await documentCount(), trajectories: await db().trajectory.count() };
    const outcome = await runImport(
      source("sd-rejected.jsonl"),
      asLines([
        ...fillers("sd-rejected", 1000),
        withCommand("sd-rejected-word", 1300, "echo rejectedword"),
        { type: "trajectory", benchmark: "sd" },
      ]),
    );
    expect(outcome.ok).toBe(false);
    expect(await documentCount()).toBe(before.documents);
    expect(await db().trajectory.count()).toBe(before.trajectories);
    expect(await found("rejectedword")).toEqual([]);
  });

  it.runIf(process.env.DATABASE_URL)("a rebuild leaves a trajectory that an import holds to that import", async () => {
    expect(
      (await runImport(source("sd-held.jsonl"), asLines([withCommand("sd-held", 2000, "echo heldword")]))).ok,
    ).toBe(true);
    const { id } = await db().trajectory.findFirstOrThrow({ where: { externalId: "sd-held" }, select: { id: true } });
    await db().$executeRaw`DELETE FROM trajectory_search WHERE "trajectoryId" = ${id}`;
    // Another connection holds the row as an import replacing it does (its upsert locks it).
    const holder = await currentDb().pool!.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT id FROM trajectory WHERE id = $1 FOR UPDATE`, [id]);
      expect(await rebuildSearchDocuments()).toEqual({ built: 0, swept: 0 });
      await holder.query("COMMIT");
    } finally {
      holder.release();
    }
    expect(await rebuildSearchDocuments()).toEqual({ built: 1, swept: 0 });
    expect(await found("heldword")).toEqual([2000]);
  });
});
