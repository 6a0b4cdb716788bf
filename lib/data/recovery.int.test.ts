import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INTERRUPTED, sweepInterruptedImports } from "@/lib/data/import/interrupted";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { removeOrphanUploads, UPLOAD_DIR_PREFIX } from "@/lib/server/recovery";
import { runImport } from "@/lib/work/import/records";
import { trajectoryFixture } from "@/prisma/factories";
import { startCli } from "@/test/cli";
import { jsonl, tempFiles } from "@/test/temp-files";

const { write } = tempFiles("sa-recovery-");

async function importRow(id: number) {
  return db().import.findUniqueOrThrow({ where: { id }, select: { status: true, errors: true, finishedAt: true } });
}

describe("recovery after a process died", () => {
  it("an import left running with no process holding it is marked interrupted, once", async () => {
    // As a process killed before this change (or on the embedded database) leaves it: RUNNING, no lock.
    const { id } = await db().import.create({ data: { fileName: "left.jsonl", status: "RUNNING" } });
    expect(await sweepInterruptedImports()).toContain(id);
    const row = await importRow(id);
    expect(row.status).toBe("FAILED");
    expect(row.finishedAt).not.toBeNull();
    expect(row.errors).toEqual([{ line: 0, field: null, message: INTERRUPTED }]);
    expect(await sweepInterruptedImports()).not.toContain(id);
  });

  it.runIf(process.env.DATABASE_URL)("an import under way in this process is left running", async () => {
    let started!: () => void;
    const reading = new Promise<void>((r) => (started = r));
    let finish!: () => void;
    const held = new Promise<void>((r) => (finish = r));
    async function* records() {
      yield { line: 1, value: trajectoryFixture({ id: "live-1", task: { id: "live" } }) };
      started();
      await held;
    }
    const importing = runImport({ fileName: "live.jsonl", format: "interchange" }, records());
    await reading;
    const live = await db().import.findFirstOrThrow({ where: { fileName: "live.jsonl" }, select: { id: true } });
    expect(await sweepInterruptedImports()).not.toContain(live.id);
    finish();
    const outcome = await importing;
    expect(outcome.ok).toBe(true);
    expect((await importRow(live.id)).status).toBe("SUCCEEDED");
  });

  it.runIf(process.env.DATABASE_URL)(
    "a command-line import killed midway (SIGKILL) leaves nothing of its file and is marked interrupted",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      const file = write(
        "killed.jsonl",
        jsonl(
          Array.from({ length: 20_000 }, (_, i) =>
            trajectoryFixture({ id: `k-${i}`, task: { id: "killed" }, run: i + 1 }),
          ),
        ),
      );
      const child = startCli(target.url, "import", file);
      child.stderr!.resume();
      const exited = new Promise((r) => child.on("exit", r));
      // Killed once its import row is there and its records are being written.
      let row: { id: number } | null = null;
      for (let i = 0; i < 600 && !row; i++) {
        row = await db().import.findFirst({ where: { fileName: file, status: "RUNNING" }, select: { id: true } });
        if (!row) await new Promise((r) => setTimeout(r, 50));
      }
      expect(row, "the import started").not.toBeNull();
      await new Promise((r) => setTimeout(r, 500));
      child.kill("SIGKILL");
      await exited;
      // The server notices the connection gone at once; the next sweep (every process at start, a
      // server every minute) marks it.
      let swept: number[] = [];
      for (let i = 0; i < 50 && !swept.includes(row!.id); i++) {
        swept = await sweepInterruptedImports();
        if (!swept.includes(row!.id)) await new Promise((r) => setTimeout(r, 100));
      }
      expect(swept).toContain(row!.id);
      expect((await importRow(row!.id)).status).toBe("FAILED");
      expect(await db().trajectory.count({ where: { externalId: { startsWith: "k-" } } })).toBe(0);
    },
    60_000,
  );

  it("removes the upload folders of processes that are gone, and keeps a live one's", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sa-uploads-"));
    try {
      // A pid no process has (above the kernel's largest), this process's parent (alive), and this
      // process's own (a former owner's: it sweeps before it receives anything).
      const dead = path.join(dir, `${UPLOAD_DIR_PREFIX}4194399-abc`);
      const live = path.join(dir, `${UPLOAD_DIR_PREFIX}${process.ppid}-abc`);
      const own = path.join(dir, `${UPLOAD_DIR_PREFIX}${process.pid}-abc`);
      for (const d of [dead, live, own]) {
        fs.mkdirSync(path.join(d, "0"), { recursive: true });
        fs.writeFileSync(path.join(d, "0", "file.jsonl"), "x".repeat(1000));
      }
      fs.mkdirSync(path.join(dir, "something-else"));
      expect(removeOrphanUploads(dir)).toEqual({ folders: 2, bytes: 2000 });
      expect(fs.readdirSync(dir).sort()).toEqual([path.basename(live), "something-else"].sort());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
