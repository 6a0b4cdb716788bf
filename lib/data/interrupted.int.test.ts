// The database going away in the middle of an import. PostgreSQL only: the embedded PGlite runs
// inside the test process and cannot be cut off from it (README, "Tests").

import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { ImportInterrupted, runImport } from "@/lib/work/import/records";
import { demoData } from "@/prisma/factories";
import { withDatabase } from "@/test/test-db";

// Which backends to terminate: every one in a transaction (the import's rows and its search
// documents), or only the second connection that writes the search documents.
const CUTS: Array<[string, string]> = [
  ["every connection of the import", ""],
  ["only the connection writing its search documents", ` AND query LIKE '%trajectory_search%'`],
];

/** The demo study four times over, under runs of their own (`variant` keeps ids apart between cases). */
function manyTrajectories(variant: number) {
  const demo = demoData({ tasksPerBenchmark: 5 });
  return [1, 2, 3, 4].flatMap((k) =>
    demo.trajectories.map((t) => ({ ...t, id: `${t.id}-cut${k}-${variant}`, run: (t.run as number) + 3 * k })),
  );
}

/** The records as a file yields them, calling `cut` before record `at`. */
async function* cutAt(records: readonly unknown[], at: number, cut: () => Promise<void>) {
  for (const [i, value] of records.entries()) {
    if (i === at) await cut();
    yield { line: i + 1, value };
  }
}

describe.runIf(process.env.DATABASE_URL)("an import whose database connection is cut", () => {
  it.each(CUTS)("%s: fails with a clear error and leaves nothing of the file", async (name, which) => {
    const target = currentDb().target;
    if (target.kind !== "postgres") throw new Error("PostgreSQL only");
    const database = new URL(target.url).pathname.slice(1);
    const records = manyTrajectories(CUTS.findIndex(([n]) => n === name));
    const before = await db().trajectory.count();

    let progressed = 0;
    let cut = false;
    const admin = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, "postgres") });
    await admin.connect();
    const fileName = `cut-${name}.jsonl`;
    let terminated = 0;
    // After the first batches have been written, terminate the connections that hold the import's transaction.
    const terminate = async () => {
      cut = true;
      const sql = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND xact_start IS NOT NULL
        AND state <> 'idle' AND pid <> pg_backend_pid()${which}`;
      terminated = (await admin.query(sql, [database])).rowCount ?? 0;
    };
    const importing = runImport({ fileName, format: "interchange" }, cutAt(records, 600, terminate), (n) => {
      progressed = n;
    });
    const error = await importing.then(
      () => null,
      (e: unknown) => e,
    );
    await admin.end();

    expect(cut).toBe(true);
    expect(terminated).toBeGreaterThan(0);
    expect(progressed).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ImportInterrupted);
    // The server's "terminating connection" notice, or the reset of the socket when a write gets there first.
    expect((error as Error).message).toMatch(
      /^the import stopped after \d+ record\(s\) \(.*(terminat|ECONNRESET).*\); nothing from this file was written$/,
    );
    expect(await db().trajectory.count()).toBe(before);
    expect(
      await db()
        .$queryRaw`SELECT count(*)::int AS n FROM trajectory_search t WHERE NOT EXISTS (SELECT 1 FROM trajectory x
          WHERE x.id = t."trajectoryId")`,
    ).toEqual([{ n: 0 }]);
    const row = await db().import.findFirstOrThrow({ where: { fileName }, select: { status: true, errors: true } });
    expect(row.status).toBe("FAILED");
    expect(JSON.stringify(row.errors)).toContain("nothing from this file was written");
  });
});
