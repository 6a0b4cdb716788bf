// Gold labels as records: imported (every version kept, the newest in force, idempotent), named
// errors for a trajectory that exists nowhere, exported so that they import back, and the
// agreement's gold figures worked by hand.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { agreementJson } from "@/lib/domain/agreement-format";
import type { AgreementReport } from "@/lib/domain/agreement-report";
import type { TrajectoryFilter } from "@/lib/domain/trajectory-filter";
import { exportGold } from "@/lib/work/export";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { getAgreement, scopeOf } from "./agreement";
import { goldInForce } from "./gold";
import { createPerson } from "./people";
import { createStudy, draftStudy } from "./studies";
import { listTrajectories } from "./trajectories";

const t = (id: string) => trajectoryFixture({ id, benchmark: "gold-b", task: { id: `gold__${id}` } });
const gold = (trajectory: string, adjudicator: string, overall: string, at: string, extra = {}) => ({
  type: "gold",
  trajectory: { id: trajectory },
  adjudicator,
  verdicts: { UPSTREAM: overall, LOCAL_GIT: "NOT_ATTEMPTED", MEMORY: "NOT_ATTEMPTED", OTHER: "NOT_ATTEMPTED" },
  note: `${adjudicator} decided`,
  created_at: at,
  ...extra,
});
const importRecords = (records: unknown[]) =>
  runImport({ fileName: "gold.jsonl", format: "interchange" }, asLines(records as never[]));
const goldRows = () =>
  db().goldLabel.findMany({
    orderBy: [{ trajectoryId: "asc" }, { createdAt: "asc" }],
    select: { trajectoryId: true, overall: true, verdicts: true, note: true, createdAt: true, adjudicator: true },
  });

/** Each gold cell of the panel and of each judge lists exactly its count of trajectories. */
async function expectCellsListed(g: AgreementReport, base: TrajectoryFilter) {
  // [gold yes, gold no] and [rater yes, rater no] as the list's filters say them, per question.
  const values = {
    attempt: { gold: ["attempt", "no-attempt"], rater: ["attempt", "NOT_ATTEMPTED"] },
    success: { gold: ["success", "no-success"], rater: ["SUCCESSFUL", "no-success"] },
  } as const;
  const cells = [
    ["both_positive", 0, 0],
    ["human_only", 0, 1],
    ["judges_only", 1, 0],
    ["both_negative", 1, 1],
  ] as const;
  for (const q of ["attempt", "success"] as const) {
    for (const [cell, goldAt, raterAt] of cells) {
      const goldValue = values[q].gold[goldAt];
      const raterValue = values[q].rater[raterAt];
      const panel = await listTrajectories({ ...base, gold: goldValue, panel: raterValue });
      expect([q, cell, panel.total]).toEqual([q, cell, g.gold!.panel[q][cell]]);
      for (const j of g.gold!.judges) {
        const own = await listTrajectories({ ...base, gold: goldValue, judge: j.judge, judgeVerdict: raterValue });
        expect([j.judge, q, cell, own.total]).toEqual([j.judge, q, cell, j[q][cell]]);
      }
    }
  }
}

describe("gold labels", () => {
  it("import every version, keep the newest in force, and import again without duplicates", async () => {
    const records = [
      t("g1"),
      t("g2"),
      voteFixture("g1", "j1", { UPSTREAM: "SUCCESSFUL" }),
      voteFixture("g1", "j2", { UPSTREAM: "SUCCESSFUL" }),
      voteFixture("g1", "j3"),
      voteFixture("g2", "j1"),
      voteFixture("g2", "j2"),
      voteFixture("g2", "j3"),
      // Two versions on g1: erin's, the newer, is in force whoever wrote the older.
      gold("g1", "dana", "NOT_ATTEMPTED", "2026-12-01T09:00:00Z"),
      gold("g1", "erin", "SUCCESSFUL", "2026-12-02T09:00:00Z"),
      { ...gold("g2", "dana", "NOT_ATTEMPTED", "2026-12-01T10:00:00Z"), type: undefined },
    ];
    const first = await importRecords(records);
    expect(first.ok && first.counts.gold).toBe(3);
    const again = await importRecords(records);
    expect(again.ok && again.counts.gold).toBe(3);
    expect(await goldRows()).toHaveLength(3);
    const ids = Object.fromEntries(
      (await db().trajectory.findMany({ select: { id: true, externalId: true } })).map((x) => [x.externalId, x.id]),
    );
    expect(await goldInForce()).toEqual(
      new Map([
        [ids.g1, "SUCCESSFUL"],
        [ids.g2, "NOT_ATTEMPTED"],
      ]),
    );
    // An adjudicator named only by a record is a person without a login, a reviewer.
    const dana = await db().user.findUniqueOrThrow({ where: { handle: "dana" } });
    expect(dana.role).toBe("REVIEWER");

    // The agreement's gold figures. Panel: g1 (j1, j2 successful, j3 not) → SUCCESSFUL; g2 → NOT_ATTEMPTED.
    // Against gold (g1 S, g2 N): both positive 1, both negative 1 on attempt and success: 2 of 2.
    const json = agreementJson(await getAgreement()) as { gold: Record<string, never> };
    expect(json.gold).not.toBeNull();
    const g = await getAgreement();
    expect(g.gold!.panel.attempt).toMatchObject({ n: 2, agreement: 100, both_positive: 1, both_negative: 1 });
    // j3 said not attempted on both: g1 gold only, g2 both negative: 1 of 2.
    const j3 = g.gold!.judges.find((j) => j.judge === "j3")!;
    expect(j3.attempt).toMatchObject({ n: 2, agreement: 50, human_only: 1, both_negative: 1 });
    expect(g.gold!.annotators).toEqual([]);

    await expectCellsListed(g, { benchmark: "gold-b" });

    // Within a study of one of the two (the list's study filter): its gold figures, linked the same way.
    const researcher = await createPerson("system", {
      handle: "gold-res",
      email: "gold-res@example.org",
      role: "RESEARCHER",
      password: "password-1",
    });
    const actor = { id: researcher.id, handle: "gold-res", role: "RESEARCHER" as const };
    const design = { name: "gold study", seed: "g", size: 1, overlap: 1, blind: false, annotators: ["gold-res"] };
    const studyId = await createStudy(actor, design, (await draftStudy(actor, design)).digest);
    const inStudy = await getAgreement((await scopeOf("gold study"))!);
    expect(inStudy.gold!.panel.attempt.n).toBe(1);
    expect((await listTrajectories({ study: "gold study" })).total).toBe(1);
    expect(studyId).toBeGreaterThan(0);
    await expectCellsListed(inStudy, { benchmark: "gold-b", study: "gold study" });
  });

  it("a gold label for a trajectory that exists nowhere is an error with its line; nothing is written", async () => {
    const before = await goldRows();
    const r = await importRecords([
      gold("g1", "dana", "ATTEMPTED", "2026-12-03T09:00:00Z"),
      gold("nowhere", "dana", "ATTEMPTED", "2026-12-03T09:00:00Z"),
    ]);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors).toEqual([expect.objectContaining({ line: 2, message: expect.stringMatching(/nowhere/) })]);
    expect(await goldRows()).toEqual(before);
  });

  it("export gold gives every version, and importing it back gives the same rows", async () => {
    const before = await goldRows();
    const exported: unknown[] = [];
    for await (const record of exportGold()) exported.push(record);
    expect(exported).toHaveLength(3);
    expect(exported[0]).toMatchObject({ type: "gold", adjudicator: "dana", note: "dana decided" });
    await db().goldLabel.deleteMany({});
    const back = await importRecords(exported);
    expect(back.ok && back.counts.gold).toBe(3);
    expect(await goldRows()).toEqual(before);
  });
});
