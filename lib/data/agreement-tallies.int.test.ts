import pg from "pg";
import { describe, expect, it } from "vitest";
import { compactTallies, rebuildTallies } from "@/lib/data/tallies";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { agreementReport } from "@/lib/domain/agreement-report";
import { prng } from "@/lib/domain/random";
import type { Verdict } from "@/lib/domain/verdicts";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { randomPanel } from "@/test/random-panel";
import { type AgreementScope, getAgreement, getGoldPoints, getLabelPoints } from "./agreement";
import { savePanel, setPanel, underPanel } from "./panel-set";

// The agreement report read from the tallies the database keeps must equal the report computed from
// the labels themselves (one point per label, lib/domain's agreementReport), in every scope (all
// labels or one study's, in the forms last given or the first forms), after any sequence of writes.

const VERDICTS: Verdict[] = ["NOT_ATTEMPTED", "ATTEMPTED", "SUCCESSFUL"];

/** Every scope a reader may ask for: all labels and each study's, each in both forms. */
async function scopes(): Promise<AgreementScope[]> {
  const studies = await db().study.findMany({ select: { id: true } });
  return [undefined, ...studies.map((s) => s.id)].flatMap((studyId) =>
    [false, true].map((firstForms) => ({ studyId, firstForms })),
  );
}

/** The report from the kept tallies (its categories and monitors are read from the rows, and checked elsewhere). */
async function keptAgreement(scope: AgreementScope = {}) {
  const { by_category: _, monitors: _m, ...report } = await getAgreement(scope);
  return { ...report, gold: report.gold && { ...report.gold, by_category: undefined } };
}

/** The report from the labels themselves, by the pure function alone. */

async function fromRows(scope: AgreementScope) {
  return agreementReport(await getLabelPoints(scope), await getGoldPoints(scope), scope.firstForms);
}

/** One random write: imports and the panel through the app's own paths, the rest straight SQL. */
function writer(seed: number) {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const verdicts = () =>
    Object.fromEntries(["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER"].map((c) => [c, pick(VERDICTS)]));
  let clock = Date.UTC(2026, 0, 1);
  const at = () => {
    clock += 60_000;
    return { created_at: new Date(clock).toISOString() };
  };
  const externalIds = async () =>
    (await db().trajectory.findMany({ select: { externalId: true }, orderBy: { id: "asc" } })).map(
      (t) => t.externalId!,
    );
  // In id order: rows' order as stored moves with how they were written, and the walk would with it.
  const anyId = async (q: string) => {
    const ids = await db().$queryRawUnsafe<Array<{ id: number }>>(`SELECT id FROM (${q}) x ORDER BY id`);
    return ids.length ? ids[Math.floor(random() * ids.length)]!.id : null;
  };
  const sql = (q: string) => db().$executeRawUnsafe(q);
  const steps: Array<[number, () => Promise<string>]> = [
    [
      0.12,
      async () => {
        const batch = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
          const [benchmark, model, network, run] = [pick(["b1", "b2"]), pick(["m1", "m2"]), random() < 0.5, 1];
          const id = `${benchmark}-${model}-${network}-${Math.floor(random() * 6)}`;
          return trajectoryFixture({ id, benchmark, model, task: { id }, network, run });
        });
        await runImport({ fileName: "t.jsonl", format: "interchange" }, asLines(batch));
        return `import ${batch.length} trajectories`;
      },
    ],
    [
      0.13,
      async () => {
        const ids = await externalIds();
        if (!ids.length) return "no trajectory to vote on";
        const batch = Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
          voteFixture(pick(ids), pick(["j1", "j2", "j3"]), verdicts(), at()),
        );
        await runImport({ fileName: "v.jsonl", format: "interchange" }, asLines(batch));
        return `import ${batch.length} votes`;
      },
    ],
    [
      0.18,
      async () => {
        const ids = await externalIds();
        if (!ids.length) return "no trajectory to label";
        const batch = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
          labelFixture(pick(ids), pick(["ann1", "ann2", "ann3"]), verdicts(), at()),
        );
        await runImport({ fileName: "l.jsonl", format: "interchange" }, asLines(batch));
        return `import ${batch.length} labels`;
      },
    ],
    [0.05, () => randomPanel(random)],
    [
      0.06,
      async () => {
        const name = `s${Math.floor(random() * 1e9)}`;
        await sql(`INSERT INTO study (name, seed) VALUES ('${name}', 'x')`);
        await sql(`INSERT INTO study_item ("studyId", "trajectoryId", stratum, position)
          SELECT s.id, t.id, '', t.id FROM study s, trajectory t WHERE s.name = '${name}' AND t.id % 4 <> 0`);
        return `study ${name}`;
      },
    ],
    [
      0.1,
      async () => {
        // Mostly the item of a label given in a study, whose scope then gains or loses it.
        const label = await anyId(`SELECT id FROM label WHERE "studyId" IS NOT NULL`);
        const [study, trajectory] =
          label !== null && random() < 0.7
            ? await db()
                .label.findUniqueOrThrow({ where: { id: label }, select: { studyId: true, trajectoryId: true } })
                .then((l) => [l.studyId, l.trajectoryId])
            : [await anyId(`SELECT id FROM study`), await anyId(`SELECT id FROM trajectory`)];
        if (study === null || trajectory === null) return "no study item to move";
        const gone = await sql(`DELETE FROM study_item WHERE "studyId" = ${study} AND "trajectoryId" = ${trajectory}`);
        if (!gone)
          await sql(`INSERT INTO study_item ("studyId", "trajectoryId", stratum, position)
            VALUES (${study}, ${trajectory}, '', 0)`);
        return `study ${study} item ${trajectory} ${gone ? "out" : "in"}`;
      },
    ],
    [
      0.1,
      async () => {
        const label = await anyId(`SELECT id FROM label`);
        if (label === null) return "no label to move";
        // Mostly a study of which its trajectory is an item, where it then counts.
        const study = await anyId(
          random() < 0.7
            ? `SELECT i."studyId" AS id FROM study_item i JOIN label l ON l."trajectoryId" = i."trajectoryId"
                WHERE l.id = ${label}`
            : `SELECT id FROM study`,
        );
        await sql(`UPDATE label SET "studyId" = ${random() < 0.25 ? "NULL" : study} WHERE id = ${label}`);
        return `label ${label} to study ${study}`;
      },
    ],
    [
      0.07,
      async () => {
        const label = await anyId(`SELECT id FROM label`);
        const [to, blind] = [pick(VERDICTS), random() < 0.8 ? "overall" : "NULL"];
        await sql(`UPDATE label SET "revisedAfterUnblinding" = true, "blindOverall" = ${blind}, overall = '${to}'
          WHERE id = ${label}`);
        return `label ${label} revised to ${to}`;
      },
    ],
    [0.03, async () => `delete label ${await deleteOne("label")}`],
    [0.03, async () => `delete vote ${await deleteOne("judge_vote")}`],
    [0.03, async () => `delete trajectory ${await deleteOne("trajectory")}`],
    [0.02, async () => `delete study ${await deleteOne("study")}`],
    [
      0.03,
      async () => {
        const id = await anyId(`SELECT id FROM trajectory`);
        await sql(`UPDATE trajectory SET prompt = CASE WHEN prompt = 'vanilla' THEN 'principled' ELSE 'vanilla' END
          ::"Prompt" WHERE id = ${id}`);
        return `trajectory ${id} to the other prompt`;
      },
    ],
    [
      0.05,
      async () => {
        await compactTallies("agreement");
        return "fold";
      },
    ],
  ];
  async function deleteOne(table: string): Promise<number | null> {
    const id = await anyId(`SELECT id FROM ${table}`);
    if (id !== null) await sql(`DELETE FROM ${table} WHERE id = ${id}`);
    return id;
  }
  // The shares add up to 1; the last step takes what rounding leaves.
  return async function step(): Promise<string> {
    let r = random();
    for (const [i, [share, write]] of steps.entries()) {
      if (r < share || i === steps.length - 1) return write();
      r -= share;
    }
    return "no step";
  };
}

describe("the agreement tallies", () => {
  it("equal the report computed from the labels in every scope after random writes, folded or not", async () => {
    // How often the figures compared held labels paired with verdicts, in a study, revised, twice labelled.
    const seen = { paired: 0, study: 0, revised: 0, units: 0 };
    for (const seed of [7, 8, 9]) {
      const step = writer(seed);
      for (let i = 0; i < 40; i++) {
        const what = await step();
        for (const scope of await scopes()) {
          const expected = await fromRows(scope);
          expect(await keptAgreement(scope), `seed ${seed}, step ${i}: ${what}; ${JSON.stringify(scope)}`).toEqual(
            expected,
          );
          seen.paired += expected.overall.attempt.n;
          if (scope.studyId !== undefined) seen.study += expected.overall.attempt.n;
          seen.revised += expected.blind_revisions.labels;
          seen.units += expected.inter_annotator.units;
        }
      }
    }
    expect(seen.paired).toBeGreaterThan(100);
    expect(seen.study).toBeGreaterThan(30);
    expect(seen.revised).toBeGreaterThan(5);
    expect(seen.units).toBeGreaterThan(200);
  });

  it("under a panel tried and rolled back, read from the rows; the tallies in force untouched", async () => {
    const inForce = await keptAgreement();
    const judges = (await db().judge.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map((j) => j.name);
    await savePanel(null, [{ judge: judges[0]!, promptVersion: null }], { name: "tried", adopt: false });
    const expected = await underPanel("tried", () => fromRows({}));
    expect(expected).not.toEqual(inForce);
    expect(await underPanel("tried", () => keptAgreement())).toEqual(expected);
    expect(await keptAgreement()).toEqual(inForce);
    expect(inForce).toEqual(await fromRows({}));
  });

  it("a rebuild restores tallies lost or wrong, leaving one base row a key", async () => {
    const all = await scopes();
    const right = await Promise.all(all.map((s) => keptAgreement(s)));
    expect(right[0]!.overall.attempt.n).toBeGreaterThan(0);
    await db().$executeRawUnsafe(`DELETE FROM agreement_tally WHERE (key).part = 'l'`);
    await db().$executeRawUnsafe(`UPDATE agreement_share SET n = n + 1`);
    expect(await keptAgreement(all[0])).not.toEqual(right[0]);
    await rebuildTallies();
    expect(await Promise.all(all.map((s) => keptAgreement(s)))).toEqual(right);
    const [left] = await db().$queryRawUnsafe<Array<{ deltas: number }>>(
      `SELECT count(*) FILTER (WHERE NOT base)::int AS deltas FROM agreement_tally`,
    );
    expect(left!.deltas).toBe(0);
  });

  it.runIf(process.env.DATABASE_URL)(
    "two transactions writing one trajectory at once (a label, a counted vote) both count, in either order",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      const t = (id: string) => trajectoryFixture({ id, benchmark: "cb", model: "cm", task: { id } });
      const votes = (id: string) => ["k1", "k2", "k3"].map((j) => voteFixture(id, j, { MEMORY: "SUCCESSFUL" }));
      await runImport(
        { fileName: "c.jsonl", format: "interchange" },
        asLines([t("c1"), t("c2"), ...votes("c1"), ...votes("c2")]),
      );
      await setPanel(
        null,
        ["k1", "k2", "k3"].map((judge) => ({ judge, promptVersion: null })),
      );
      const ids = await db().$queryRawUnsafe<Array<{ id: number; judge: number; annotator: string }>>(
        `SELECT t.id, (SELECT id FROM judge WHERE name = 'k1') AS judge,
          (SELECT id FROM "user" WHERE handle = 'ann1') AS annotator
         FROM trajectory t WHERE "externalId" IN ('c1', 'c2') ORDER BY "externalId"`,
      );
      const label = (id: number, annotator: string) =>
        `INSERT INTO label ("trajectoryId", "annotatorId", verdicts, overall, "updatedAt")
         VALUES (${id}, '${annotator}', '{"MEMORY": "ATTEMPTED"}', 'ATTEMPTED', now())`;
      const vote = (id: number, judge: number) =>
        `INSERT INTO judge_vote ("trajectoryId", "judgeId", verdicts, overall, "parseStatus", "promptVersion", counted,
           "updatedAt")
         VALUES (${id}, ${judge}, '{"MEMORY": "SUCCESSFUL"}', 'SUCCESSFUL', 'PARSED', 7, true, now())`;
      // k1's vote comes back in the race below (one counted vote a judge, as the panel keeps it).
      await db().$executeRawUnsafe(
        `DELETE FROM judge_vote WHERE "judgeId" = ${ids[0]!.judge}
           AND "trajectoryId" IN (${ids[0]!.id}, ${ids[1]!.id})`,
      );
      const [first, second] = [new pg.Client(target.url), new pg.Client(target.url)];
      await Promise.all([first.connect(), second.connect()]);
      try {
        for (const [row, [a, b]] of [
          [ids[0]!, [label, vote]],
          [ids[1]!, [vote, label]],
        ] as const) {
          const write = (w: typeof label | typeof vote) =>
            w === label ? label(row.id, row.annotator) : vote(row.id, row.judge);
          await first.query("BEGIN");
          await first.query(write(a));
          await second.query("BEGIN");
          // The second waits in its trigger for the first's lock on the trajectory, then reads its row.
          const waiting = second.query(write(b));
          await new Promise((r) => setTimeout(r, 200));
          await first.query("COMMIT");
          await waiting;
          await second.query("COMMIT");
        }
      } finally {
        await Promise.all([first.end(), second.end()]);
      }
      for (const scope of await scopes()) expect(await keptAgreement(scope)).toEqual(await fromRows(scope));
      // Each trajectory: ann1's label beside k1's counted vote.
      const [pairs] = await db().$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT sum(n)::int AS n FROM agreement_tally WHERE scope = 0 AND NOT first_forms AND (key).part = 'j'
           AND (key)."judgeId" = ${ids[0]!.judge}`,
      );
      expect(pairs!.n).toBe(2);
    },
  );
});
