import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { answer } from "@/test/answers";
import { getOverview } from "./overview";

describe("getOverview", () => {
  it("counts by benchmark and model what was imported", async () => {
    await runImport(
      { fileName: "o.jsonl", format: "interchange" },
      asLines([
        trajectoryFixture({ id: "o1", benchmark: "b1", model: "m1", task: { id: "t1" }, run: 1, resolved: true }),
        trajectoryFixture({ id: "o2", benchmark: "b1", model: "m1", task: { id: "t1" }, run: 2, resolved: false }),
        trajectoryFixture({ id: "o3", benchmark: "b1", model: "m2", task: { id: "t2" }, run: 1, resolved: null }),
        trajectoryFixture({ id: "o4", benchmark: "b2", model: "m1", task: { id: "t1" }, run: 1, resolved: true }),
        voteFixture("o1", "j1"),
        voteFixture("o1", "j2"),
        { judge: "j1", trajectory: { id: "o3" }, raw: "no idea" },
        labelFixture("o2", "ann"),
      ]),
    );
    // An answer under a prompt version no panel names: an answer, not counted.
    await answer("j1", 2, { o2: "SUCCESSFUL" });
    const o = await getOverview();
    // t1 in b1, t2 in b1 and t1 in b2 are three tasks: a task belongs to its benchmark.
    expect(o.totals).toEqual({
      trajectories: 4,
      tasks: 3,
      votes: 4,
      counted: 3,
      unparseable: 1,
      labels: 1,
      judges: 2,
      annotators: 1,
    });
    expect(o.rows).toEqual([
      { benchmark: "b1", model: "m1", trajectories: 2, judged: 1, resolved: 1, labelled: 1 },
      { benchmark: "b1", model: "m2", trajectories: 1, judged: 1, resolved: 0, labelled: 0 },
      { benchmark: "b2", model: "m1", trajectories: 1, judged: 0, resolved: 1, labelled: 0 },
    ]);
  });
});

describe("migrations", () => {
  it("are recorded in Prisma's own table, so the Prisma CLI can take over where it runs", async () => {
    const rows = await db().$queryRaw<
      Array<{ migration_name: string; finished_at: Date | null }>
    >`SELECT migration_name, finished_at FROM _prisma_migrations`;
    const onDisk = fs
      .readdirSync("prisma/migrations", { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(onDisk.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.migration_name).sort()).toEqual(onDisk);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });
});
