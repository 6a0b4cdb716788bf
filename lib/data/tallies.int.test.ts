import pg from "pg";
import { describe, expect, it } from "vitest";
import { compactTallies, foldTallies, rebuildTallies, TALLY_TABLES } from "@/lib/data/tallies";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { prng } from "@/lib/domain/random";
import { type RunOutcome, talliesOf } from "@/lib/domain/rates";
import {
  type CategoryTally,
  type Condition,
  compareConditions,
  type JudgeTallies,
  resultRow,
} from "@/lib/domain/results";
import { isAttempt, isSuccess, type Verdict, verdictMap } from "@/lib/domain/verdicts";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { runCli } from "@/test/cli";
import { randomPanel } from "@/test/random-panel";
import { categoriesNow, insertCategoryVersion } from "./categories";
import { type ConditionResult, getResults } from "./results";
import { transaction } from "./sql";

// The result table read from the tallies the database keeps must equal the table computed from the
// raw rows (the trajectories' stored columns and the counted votes), after any sequence of writes.

const VERDICTS: Verdict[] = ["NOT_ATTEMPTED", "ATTEMPTED", "SUCCESSFUL"];
const JUDGES = ["j1", "j2", "j3", "j4"];
const CATEGORIES = ["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER", "TEST_TAMPER"];

/** The result table from the raw rows, by the pure functions alone. */
async function fromRows(): Promise<ConditionResult[]> {
  const rows = await db().trajectory.findMany({
    include: {
      benchmark: true,
      model: true,
      votes: { where: { counted: true }, include: { judge: true } },
    },
  });
  // Every category some trajectory's panel gives a verdict in, in the categories' order, with its name.
  const given = new Set(rows.flatMap((r) => Object.keys(verdictMap(r.panelCategories))));
  const keys = (await categoriesNow()).filter((c) => given.has(c.key));
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    const key = JSON.stringify([r.benchmark.name, r.model.name, r.network, r.prompt]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()]
    .map((ts) => {
      const t0 = ts[0]!;
      const condition: Condition = {
        benchmark: t0.benchmark.name,
        model: t0.model.name,
        network: t0.network,
        prompt: t0.prompt,
      };
      const runs: RunOutcome[] = ts.map((t) => ({
        task: String(t.taskId),
        resolved: t.resolved,
        panel: t.panelVerdict,
      }));
      // Tasks by shape, in the order the database sends them (n, c, e).
      const tallies = talliesOf(runs);
      const judged = ts.filter((t) => t.panelVerdict !== null);
      const categories = keys.map(({ key, name }): CategoryTally => {
        const verdicts = judged.flatMap((t) => verdictMap(t.panelCategories)[key] ?? []);
        return {
          key,
          name,
          judged: verdicts.length,
          attempts: verdicts.filter(isAttempt).length,
          successes: verdicts.filter(isSuccess).length,
        };
      });
      const judges = new Map<string, JudgeTallies>();
      for (const v of ts.flatMap((t) => t.votes)) {
        const j = judges.get(v.judge.name) ?? {
          judge: v.judge.name,
          votes: 0,
          attempts: 0,
          successes: 0,
          unparseable: 0,
        };
        j.votes += 1;
        if (isAttempt(v.overall)) j.attempts += 1;
        if (isSuccess(v.overall)) j.successes += 1;
        if (v.parseStatus === "UNPARSEABLE") j.unparseable += 1;
        judges.set(v.judge.name, j);
      }
      return {
        row: resultRow(condition, tallies),
        tallies,
        categories,
        unparseable: ts.reduce((a, t) => a + t.unparseableVotes, 0),
        unparseableTrajectories: ts.filter((t) => t.unparseableVotes > 0).length,
        judges: [...judges.values()].sort((a, b) => a.judge.localeCompare(b.judge)),
      };
    })
    .sort((a, b) => compareConditions(a.row, b.row));
}

/** One random write through the app's own paths (imports, the panel) or straight SQL (deletes, edits). */
function writer(seed: number) {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  let clock = Date.UTC(2026, 0, 1);
  const trajectory = () => {
    const [benchmark, model, task, network, prompt, run] = [
      pick(["b1", "b2"]),
      pick(["m1", "m2"]),
      pick(["t1", "t2", "t3"]),
      random() < 0.5,
      pick(["vanilla", "principled"]),
      1 + Math.floor(random() * 3),
    ];
    const id = [benchmark, model, task, network, prompt, run].join("-");
    const resolved = pick([true, false, null]);
    return trajectoryFixture({ id, benchmark, model, task: { id: task }, network, prompt, run, resolved });
  };
  const vote = (id: string) => {
    clock += 60_000;
    const when = { created_at: new Date(clock).toISOString() };
    if (random() < 0.15) return voteFixture(id, pick(JUDGES), {}, { verdicts: undefined, raw: "no verdict", ...when });
    // Some votes give TEST_TAMPER too, some give fewer categories: each a category's own judged count.
    const asked = CATEGORIES.filter((c) => c === "UPSTREAM" || random() < 0.7);
    const verdicts = Object.fromEntries(asked.map((c) => [c, pick(VERDICTS)]));
    return voteFixture(id, pick(JUDGES), {}, { verdicts, ...when });
  };
  const sqlRow = async (q: string) => {
    const ids = await db().$queryRawUnsafe<Array<{ id: number }>>(q);
    return ids.length ? ids[Math.floor(random() * ids.length)]!.id : null;
  };
  return async function step(): Promise<string> {
    const r = random();
    if (r < 0.3) {
      const batch = Array.from({ length: 1 + Math.floor(random() * 6) }, trajectory);
      await runImport({ fileName: "t.jsonl", format: "interchange" }, asLines(batch));
      return `import ${batch.length} trajectories`;
    }
    if (r < 0.55) {
      const ids = (await db().trajectory.findMany({ select: { externalId: true } })).map((t) => t.externalId!);
      if (!ids.length) return "no trajectory to vote on";
      const batch = Array.from({ length: 1 + Math.floor(random() * 8) }, () => vote(pick(ids)));
      await runImport({ fileName: "v.jsonl", format: "interchange" }, asLines(batch));
      return `import ${batch.length} votes`;
    }
    if (r < 0.62) return randomPanel(random);
    if (r < 0.7) {
      const id = await sqlRow(`SELECT id FROM judge_vote ORDER BY id`);
      if (id !== null) await db().$executeRawUnsafe(`DELETE FROM judge_vote WHERE id = ${id}`);
      return `delete vote ${id}`;
    }
    if (r < 0.76) {
      const id = await sqlRow(`SELECT id FROM trajectory ORDER BY id`);
      if (id !== null) await db().$executeRawUnsafe(`DELETE FROM trajectory WHERE id = ${id}`);
      return `delete trajectory ${id}`;
    }
    if (r < 0.86) {
      const id = await sqlRow(`SELECT id FROM trajectory ORDER BY id`);
      const to = pick(["true", "false", "NULL"]);
      if (id !== null) await db().$executeRawUnsafe(`UPDATE trajectory SET resolved = ${to} WHERE id = ${id}`);
      return `trajectory ${id} resolved ${to}`;
    }
    if (r < 0.9) {
      // A trajectory moved to the other network (no path of the app does this; the tallies follow it).
      const id = await sqlRow(`SELECT id FROM trajectory ORDER BY id`);
      if (id !== null)
        await db().$executeRawUnsafe(`UPDATE trajectory SET network = NOT network WHERE id = ${id}
          AND NOT EXISTS (SELECT 1 FROM trajectory o, trajectory t WHERE t.id = ${id} AND o."benchmarkId" =
          t."benchmarkId" AND o."modelId" = t."modelId" AND o."taskId" = t."taskId" AND o.network <> t.network
          AND o.prompt = t.prompt AND o.run = t.run)`);
      return `trajectory ${id} moved`;
    }
    await compactTallies("results");
    return "fold";
  };
}

describe("the result tallies", () => {
  it("equal the table computed from the raw rows after random sequences of writes, folded or not", async () => {
    await transaction((sql) =>
      insertCategoryVersion(sql, null, {
        key: "TEST_TAMPER",
        name: "Test tampering",
        definition: "changing how the task is graded",
        examples: [],
      }),
    );
    for (const seed of [1, 2, 3]) {
      const step = writer(seed);
      for (let i = 0; i < 20; i++) {
        const what = await step();
        expect(await getResults(), `seed ${seed}, step ${i}: ${what}`).toEqual(await fromRows());
      }
    }
    expect((await getResults()).length).toBeGreaterThan(1);
    const before = await getResults();
    await rebuildTallies();
    expect(await getResults()).toEqual(before);
    // Rebuilt, every key has one base row and nothing else.
    const [left] = await db().$queryRawUnsafe<Array<{ deltas: number }>>(
      `SELECT count(*) FILTER (WHERE NOT base)::int AS deltas FROM result_task_tally`,
    );
    expect(left!.deltas).toBe(0);
  });

  it("equal it after writes of more rows than a kept plan is made for, and of few after them", async () => {
    // The triggers keep the plan of a write of up to 64 rows and plan a larger one afresh (the
    // migration tally_triggers_planned_once): both ways, one after the other, in any order.
    const random = prng(9);
    const steps: Array<[string, () => Promise<unknown>]> = [
      [
        "import 90 trajectories",
        () =>
          runImport(
            { fileName: "t.jsonl", format: "interchange" },
            asLines(
              Array.from({ length: 90 }, (_, i) =>
                trajectoryFixture({
                  id: `big-${i}`,
                  benchmark: "b3",
                  model: i % 2 ? "m1" : "m2",
                  task: { id: `big-t${i % 45}` },
                  network: true,
                  prompt: i % 3 ? "vanilla" : "principled",
                  run: 1 + Math.floor(i / 45),
                  resolved: [true, false, null][i % 3],
                }),
              ),
            ),
          ),
      ],
      [
        "import 270 votes",
        () =>
          runImport(
            { fileName: "v.jsonl", format: "interchange" },
            asLines(
              Array.from({ length: 270 }, (_, i) =>
                voteFixture(`big-${i % 90}`, JUDGES[Math.floor(i / 90)]!, {
                  UPSTREAM: VERDICTS[i % 3],
                  MEMORY: VERDICTS[(i >> 1) % 3],
                }),
              ),
            ),
          ),
      ],
      ["a panel", () => randomPanel(random)],
      [
        "import 2 votes",
        () =>
          runImport(
            { fileName: "v.jsonl", format: "interchange" },
            asLines([voteFixture("big-1", "j4", { LOCAL_GIT: "SUCCESSFUL" }), voteFixture("big-2", "j4")]),
          ),
      ],
      [
        "all 90 resolved changed",
        () =>
          db().$executeRawUnsafe(`UPDATE trajectory SET resolved = NOT coalesce(resolved,
        false) WHERE "externalId" LIKE 'big-%'`),
      ],
      [
        "one resolved changed",
        () =>
          db().$executeRawUnsafe(`UPDATE trajectory SET resolved = NULL
        WHERE "externalId" = 'big-7'`),
      ],
      [
        "all 90 moved",
        () =>
          db().$executeRawUnsafe(`UPDATE trajectory SET network = false
        WHERE "externalId" LIKE 'big-%'`),
      ],
      ["another panel", () => randomPanel(random)],
      ["half the votes deleted", () => db().$executeRawUnsafe(`DELETE FROM judge_vote WHERE id % 2 = 0`)],
      [
        "one moved back",
        () =>
          db().$executeRawUnsafe(`UPDATE trajectory SET network = true
        WHERE "externalId" = 'big-3'`),
      ],
      [
        "70 trajectories deleted",
        () =>
          db().$executeRawUnsafe(`DELETE FROM trajectory
        WHERE "externalId" LIKE 'big-%' AND substr("externalId", 5)::int < 70`),
      ],
      ["one deleted", () => db().$executeRawUnsafe(`DELETE FROM trajectory WHERE "externalId" = 'big-80'`)],
    ];
    for (const [what, write] of steps) {
      const done = await write();
      if (typeof done === "object") expect(done, what).toMatchObject({ ok: true });
      else if (typeof done === "number") expect(done, what).toBeGreaterThan(0);
      expect(await getResults(), what).toEqual(await fromRows());
    }
  });

  it.runIf(process.env.DATABASE_URL)(
    "a fold that waits for a lock gives up within its limit, and the next one folds",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      await runImport(
        { fileName: "t.jsonl", format: "interchange" },
        asLines([trajectoryFixture({ id: "held-1", benchmark: "b9", model: "m9", resolved: true })]),
      );
      const deltas = async () =>
        (
          await db().$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM result_tally WHERE NOT base`)
        )[0]!.n;
      expect(await deltas()).toBeGreaterThan(0);
      // Another process's fold holds the fold's lock (the migration result_tallies: 7431) and does not end.
      const other = new pg.Client({ connectionString: target.url });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query("SELECT pg_advisory_xact_lock(7431)");
        await expect(foldTallies("results", { lockMs: 100, statementMs: 10_000 })).rejects.toThrow(/lock timeout/);
        expect(await deltas()).toBeGreaterThan(0);
        // The connection it used went back to the pool without its limits (the pool lends the one
        // returned last first).
        const [settings] = await db().$queryRawUnsafe<Array<{ lock: string; statement: string }>>(
          `SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement`,
        );
        expect(settings).toEqual({ lock: "0", statement: "0" });
      } finally {
        await other.query("ROLLBACK");
        await other.end();
      }
      await foldTallies("results");
      expect(await deltas()).toBe(0);
    },
  );

  it("VACUUM leaves the tally tables whole (truncating would lock out every writer and reader)", async () => {
    const rows = await db().$queryRawUnsafe<Array<{ relname: string; options: string[] | null }>>(
      `SELECT relname, reloptions AS options FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r'`,
      TALLY_TABLES,
    );
    expect(rows.map((r) => r.relname).sort()).toEqual([
      "agreement_tally",
      "result_category_tally",
      "result_judge_tally",
      "result_tally",
      "result_task_shape",
      "result_task_tally",
    ]);
    for (const r of rows) expect(r.options, r.relname).toContain("vacuum_truncate=false");
  });

  it("a rebuild restores tallies lost or wrong (a database restored without them)", async () => {
    const right = await getResults();
    expect(right.length).toBeGreaterThan(0);
    await db().$executeRawUnsafe(`DELETE FROM result_tally`);
    await db().$executeRawUnsafe(`UPDATE result_judge_tally SET votes = votes + 5`);
    expect(await getResults()).not.toEqual(right);
    await rebuildTallies();
    expect(await getResults()).toEqual(right);
  });

  it.runIf(process.env.DATABASE_URL)("npm run cli -- tallies rebuild says whether they had drifted", async () => {
    const target = currentDb().target;
    if (target.kind !== "postgres") throw new Error("PostgreSQL only");
    const right = await getResults();
    await db().$executeRawUnsafe(`UPDATE result_tally SET judged = judged + 1`);
    const drifted = runCli(target.url, "tallies", "rebuild");
    expect(drifted.status, drifted.stderr).toBe(0);
    expect(drifted.stderr).toMatch(/the figures had drifted from the rows and are now right/);
    expect(await getResults()).toEqual(right);
    const again = runCli(target.url, "tallies", "rebuild");
    expect(again.stderr).toMatch(/the result table and the agreement are unchanged/);
    expect(runCli(target.url, "tallies").status).toBe(1);
  });
});
