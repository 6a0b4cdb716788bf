// The database going away in the middle of an import. PostgreSQL only: the embedded PGlite runs
// inside the test process and cannot be cut off from it (README, "Tests").
import { describe, expect, it } from "vitest";
import pg from "pg";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db-connect";
import { demoData } from "@/prisma/factories";
import { withDatabase } from "@/test/test-db";
import { ImportInterrupted, runImport } from "./imports";

describe.runIf(process.env.DATABASE_URL)("an import whose database connection is cut", () => {
  it("fails with a clear error and leaves nothing of the file", async () => {
    const target = currentDb().target;
    if (target.kind !== "postgres") throw new Error("PostgreSQL only");
    const database = new URL(target.url).pathname.slice(1);
    const demo = demoData({ tasksPerBenchmark: 5 });
    const records = [1, 2, 3, 4].flatMap((k) => demo.trajectories.map((t) => ({ ...t, id: `${t.id}-cut${k}`, run: (t.run as number) + 3 * k })));
    const before = await db().trajectory.count();

    let progressed = 0;
    let cut = false;
    const admin = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, "postgres") });
    await admin.connect();
    const importing = runImport({ fileName: "cut.jsonl", format: "interchange" }, (async function* () {
      for (const [i, value] of records.entries()) {
        // After the first batches have been written, terminate the connection that holds the import's transaction.
        if (i === 600 && !cut) {
          cut = true;
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND xact_start IS NOT NULL AND state <> 'idle' AND pid <> pg_backend_pid()`,
            [database],
          );
        }
        yield { line: i + 1, value };
      }
    })(), (n) => { progressed = n; });
    const error = await importing.then(() => null, (e: unknown) => e);
    await admin.end();

    expect(cut).toBe(true);
    expect(progressed).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ImportInterrupted);
    expect((error as Error).message).toMatch(/^the import stopped after \d+ record\(s\) \(.*terminat.*\); nothing from this file was written$/);
    expect(await db().trajectory.count()).toBe(before);
    const row = await db().import.findFirstOrThrow({ where: { fileName: "cut.jsonl" }, select: { status: true, errors: true } });
    expect(row.status).toBe("FAILED");
    expect(JSON.stringify(row.errors)).toContain("nothing from this file was written");
  });
});
