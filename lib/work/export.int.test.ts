import { describe, expect, it } from "vitest";
import { getOverview } from "@/lib/data/overview";
import { CONDITION_SELECT, PANEL_SELECT, VERDICT_SELECT } from "@/lib/data/selects";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { seedDemo } from "@/prisma/seed";
import { EXPORTS } from "./export";

/** Every stored column a figure or an export depends on. */
const SNAPSHOT_SELECT = {
  ...CONDITION_SELECT,
  patch: true,
  externalId: true,
  stepCount: true,
  messageCount: true,
  ...PANEL_SELECT,
  voteCount: true,
  unparseableVotes: true,
  labelCount: true,
  task: { select: { key: true, repo: true } },
  messages: {
    orderBy: { seq: "asc" },
    select: {
      role: true,
      step: true,
      content: true,
      reasoning: true,
      toolCallId: true,
      exitCode: true,
      toolCalls: { orderBy: { seq: "asc" }, select: { name: true, input: true, inputIsJson: true, step: true } },
    },
  },
  votes: {
    orderBy: { judge: { name: "asc" } },
    select: {
      judge: { select: { name: true } },
      overall: true,
      ...VERDICT_SELECT,
      parseStatus: true,
      rationale: true,
    },
  },
  labels: {
    orderBy: { annotator: { handle: "asc" } },
    select: {
      annotator: { select: { handle: true } },
      overall: true,
      ...VERDICT_SELECT,
      note: true,
    },
  },
} as const;

/** Everything a figure depends on, keyed by natural key so ids may differ. */
async function snapshot() {
  const trajectories = await db().trajectory.findMany({ select: SNAPSHOT_SELECT });
  const key = (t: (typeof trajectories)[number]) =>
    [t.benchmark.name, t.model.name, t.task.key, t.network, t.prompt, t.run].join("|");
  return { overview: await getOverview(), trajectories: trajectories.sort((a, b) => key(a).localeCompare(key(b))) };
}

describe("export", () => {
  it("importing an export into an empty database gives back the same data and figures", async () => {
    await seedDemo({ tasksPerBenchmark: 2, labelled: 10 });
    const before = await snapshot();
    expect(before.trajectories.length).toBe(2 * 2 * 3 * 2 * 2 * 3);
    expect(before.overview.totals.unparseable).toBeGreaterThan(0);
    expect(before.overview.totals.labels).toBeGreaterThan(0);

    const records: unknown[] = [];
    for (const source of EXPORTS.all) for await (const r of source()) records.push(JSON.parse(JSON.stringify(r)));
    expect(records.filter((r) => (r as { type: string }).type === "trajectory")).toHaveLength(
      before.trajectories.length,
    );

    // Emptied as a new database is: the built-in categories stay (the truncate's cascade takes them).
    await db().$executeRawUnsafe(`CREATE TABLE kept_category AS SELECT * FROM category WHERE rank < 1000`);
    await db().$executeRawUnsafe(
      `TRUNCATE trajectory, task, benchmark, agent_model, judge, judge_vote, label, label_revision, "user", import
        RESTART IDENTITY CASCADE`,
    );
    await db().$executeRawUnsafe(`INSERT INTO category SELECT * FROM kept_category`);
    await db().$executeRawUnsafe(`DROP TABLE kept_category`);
    expect((await getOverview()).totals.trajectories).toBe(0);

    const outcome = await runImport(
      { fileName: "export.jsonl", format: "interchange" },
      records.map((value, i) => ({ line: i + 1, value })),
    );
    expect(outcome.ok).toBe(true);
    expect(await snapshot()).toEqual(before);
  });
});
