import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { type AgreementReport, agreementReport } from "@/lib/domain/agreement-report";
import { exportLabels } from "@/lib/work/export";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { seedDemo } from "@/prisma/seed";
import { type AgreementScope, getAgreement, getGoldPoints, getLabelPoints, scopeOf } from "./agreement";
import { createPerson } from "./people";
import { submitLabel } from "./queue";
import { createStudy, draftStudy } from "./studies";
import { listTrajectories } from "./trajectories";

const NOT_ATTEMPTED = {
  UPSTREAM: "NOT_ATTEMPTED",
  LOCAL_GIT: "NOT_ATTEMPTED",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
};

/** Four trajectories, their votes and two annotators' labels, the expected figures worked out below. */
function records() {
  const t = (id: string, run: number, extra = {}) =>
    trajectoryFixture({ id, benchmark: "ab", model: "am", task: { id: "agree" }, run, ...extra });
  return [
    t("a1", 1),
    t("a2", 2),
    t("a3", 3, { network: false }),
    t("a4", 4),
    // panels: a1 S (3×S), a2 N, a3 A (2×A), a4 unjudged
    voteFixture("a1", "j1", { UPSTREAM: "SUCCESSFUL" }),
    voteFixture("a1", "j2", { UPSTREAM: "SUCCESSFUL" }),
    voteFixture("a1", "j3", { UPSTREAM: "SUCCESSFUL" }),
    voteFixture("a2", "j1"),
    voteFixture("a2", "j2"),
    voteFixture("a2", "j3", { OTHER: "ATTEMPTED" }),
    voteFixture("a3", "j1", { MEMORY: "ATTEMPTED" }),
    voteFixture("a3", "j2", { MEMORY: "ATTEMPTED" }),
    // alice: a1 first said N, then S (newest wins); a2 A (disagrees); a3 A; a4 S (unjudged: not counted)
    labelFixture("a1", "alice", {}, { created_at: "2026-11-01T00:00:00Z" }),
    labelFixture("a1", "alice", { UPSTREAM: "SUCCESSFUL" }, { created_at: "2026-11-02T00:00:00Z" }),
    labelFixture("a2", "alice", { OTHER: "ATTEMPTED" }),
    labelFixture("a3", "alice", { MEMORY: "ATTEMPTED" }),
    labelFixture("a4", "alice", { LOCAL_GIT: "SUCCESSFUL" }),
    // bob on a1: S as well
    labelFixture("a1", "bob", { UPSTREAM: "SUCCESSFUL" }),
  ];
}

describe("getAgreement", () => {
  it("compares each annotator's newest label with the panel, only on judged trajectories", async () => {
    const outcome = await runImport({ fileName: "agree.jsonl", format: "interchange" }, asLines(records()));
    expect(outcome.ok).toBe(true);
    const r = await getAgreement();
    // Pairs (human, panel): a1 alice (S,S), a1 bob (S,S), a2 (A,N), a3 (A,A).
    // attempt: both yes 3 (a1, a1, a3), human only 1 (a2); success: both yes 2, both no 2.
    expect(r.overall.attempt).toMatchObject({
      n: 4,
      both_positive: 3,
      human_only: 1,
      judges_only: 0,
      both_negative: 0,
      agreement: 75,
    });
    expect(r.overall.success).toMatchObject({
      n: 4,
      both_positive: 2,
      human_only: 0,
      judges_only: 0,
      both_negative: 2,
      agreement: 100,
      kappa: 1,
    });
    expect(r.by_condition.map((c) => [c.network, c.prompt, c.attempt.n])).toEqual([
      [true, "vanilla", 3],
      [false, "vanilla", 1],
    ]);
    // j3 voted on a1 (S) and a2 (A): alice's and bob's a1 agree, a2 agrees on attempt.
    expect(r.judges.find((j) => j.judge === "j3")!.attempt).toMatchObject({ n: 3, both_positive: 3 });
    // a1 has two labels, both SUCCESSFUL: one pairable unit in full agreement, alpha undefined (one value only).
    expect(r.inter_annotator).toEqual({ alpha: null, units: 1, labels: 2 });

    // The "human only" cell's trajectories: a label says attempted, the panel says not attempted.
    const cell = await listTrajectories({ benchmark: "ab", human: "attempt", panel: "NOT_ATTEMPTED" });
    expect(cell.rows.map((x) => x.run)).toEqual([2]);

    // Labels export in their newest form.
    const exported = [];
    for await (const l of exportLabels()) exported.push(l);
    const alicesA1 = exported.find((l) => l.annotator === "alice" && (l.trajectory as { run: number }).run === 1)!;
    expect(alicesA1).toMatchObject({
      type: "label",
      verdicts: { UPSTREAM: "SUCCESSFUL" },
      created_at: "2026-11-02T00:00:00.000Z",
    });
    expect(exported).toHaveLength(5);
  });
});

describe("agreement of one study", () => {
  it("counts that study's labels on its items only, and its items' gold labels", async () => {
    // Runs after the file's first test: a1–a4 with alice's and bob's imported labels.
    const res = await createPerson("system", {
      handle: "agree-res",
      email: "agree-res@example.org",
      role: "RESEARCHER",
      password: "password-1",
    });
    const actor = { id: res.id, handle: res.handle, role: "RESEARCHER" as const };
    const design = { name: "agree study", seed: "s", size: 10, overlap: 1, blind: false, annotators: ["agree-res"] };
    const draft = await draftStudy(actor, design);
    const studyId = await createStudy(actor, design, draft.digest);
    const a2 = (await listTrajectories({ benchmark: "ab", run: 2 })).rows[0]!.id;
    await submitLabel(actor, {
      studyId,
      trajectoryId: a2,
      verdicts: { UPSTREAM: "NOT_ATTEMPTED", LOCAL_GIT: "ATTEMPTED", MEMORY: "NOT_ATTEMPTED", OTHER: "NOT_ATTEMPTED" },
      base: "",
    });
    await runImport(
      { fileName: "gold.jsonl", format: "interchange" },
      asLines([{ type: "gold", trajectory: { id: "a2" }, adjudicator: "dana", verdicts: NOT_ATTEMPTED }]),
    );
    expect(await scopeOf("agree study")).toEqual({ studyId, firstForms: false });
    expect(await scopeOf("agree study", true)).toEqual({ studyId, firstForms: true });
    expect(await scopeOf("no such study")).toBeNull();
    expect(await scopeOf("a\u0000b")).toBeNull();
    expect(await scopeOf(undefined)).toEqual({ firstForms: false });
    // The study: one label (a2: attempted against the panel's not attempted), one gold label (a2: not attempted).
    const inStudy = await getAgreement({ studyId });
    expect(inStudy.overall.attempt).toMatchObject({ n: 1, human_only: 1, agreement: 0 });
    expect(inStudy.gold!.panel.attempt).toMatchObject({ n: 1, both_negative: 1 });
    expect(inStudy.gold!.annotators).toEqual([expect.objectContaining({ annotator: "agree-res" })]);
    // Everything: the four imported pairs and the study's label.
    expect((await getAgreement()).overall.attempt.n).toBe(5);
  });
});

describe("labels revised after unblinding", () => {
  it("are marked in a blind study, and agreement can count their blind first form", async () => {
    const ann = await createPerson("system", {
      handle: "agree-blind",
      email: "agree-blind@example.org",
      role: "ANNOTATOR",
      password: "password-1",
    });
    const actor = { id: ann.id, handle: ann.handle, role: "ANNOTATOR" as const };
    const res = await db().user.findUniqueOrThrow({ where: { handle: "agree-res" } });
    const researcher = { id: res.id, handle: res.handle, role: "RESEARCHER" as const };
    const design = { name: "agree blind", seed: "b", size: 10, overlap: 1, blind: true, annotators: ["agree-blind"] };
    const draft = await draftStudy(researcher, design);
    const studyId = await createStudy(researcher, design, draft.digest);
    const a1 = (await listTrajectories({ benchmark: "ab", run: 1 })).rows[0]!.id;
    const give = (LOCAL_GIT: string, base: string) =>
      submitLabel(actor, {
        studyId,
        trajectoryId: a1,
        verdicts: { ...NOT_ATTEMPTED, LOCAL_GIT } as never,
        base,
      });
    // First form, blind: attempted (the panel of a1 is successful: attempt agrees).
    const first = await give("ATTEMPTED", "");
    let stored = await db().label.findFirstOrThrow({ where: { trajectoryId: a1, annotatorId: ann.id } });
    expect([stored.revisedAfterUnblinding, stored.blindOverall]).toEqual([false, null]);
    // The judges are shown now; the annotator changes to successful: marked, the blind form kept.
    const second = await give("SUCCESSFUL", first.updatedAt);
    stored = await db().label.findFirstOrThrow({ where: { trajectoryId: a1, annotatorId: ann.id } });
    expect([stored.revisedAfterUnblinding, stored.blindOverall, stored.overall]).toEqual([
      true,
      "ATTEMPTED",
      "SUCCESSFUL",
    ]);
    // A second edit keeps the form given blind, not the one before it.
    await give("NOT_ATTEMPTED", second.updatedAt);
    stored = await db().label.findFirstOrThrow({ where: { trajectoryId: a1, annotatorId: ann.id } });
    expect([stored.revisedAfterUnblinding, stored.blindOverall, stored.overall]).toEqual([
      true,
      "ATTEMPTED",
      "NOT_ATTEMPTED",
    ]);
    // In the study: one label on a1, whose panel is successful. Newest form: not attempted, human no /
    // panel yes on attempt (judges only). First form: attempted, both yes.
    const newest = await getAgreement({ studyId });
    expect(newest.overall.attempt).toMatchObject({ n: 1, judges_only: 1 });
    expect(newest.blind_revisions).toEqual({ labels: 1, first_forms: false });
    const firstForms = await getAgreement({ studyId, firstForms: true });
    expect(firstForms.overall.attempt).toMatchObject({ n: 1, both_positive: 1 });
    expect(firstForms.blind_revisions).toEqual({ labels: 1, first_forms: true });

    // In a study that is not blind an edit leaves no mark (agree study, earlier: agree-res on a2).
    const a2 = (await listTrajectories({ benchmark: "ab", run: 2 })).rows[0]!.id;
    const resLabel = await db().label.findFirstOrThrow({ where: { trajectoryId: a2, annotatorId: res.id } });
    const agreeStudy = await db().study.findUniqueOrThrow({ where: { name: "agree study" } });
    await submitLabel(researcher, {
      studyId: agreeStudy.id,
      trajectoryId: a2,
      verdicts: NOT_ATTEMPTED as never,
      base: resLabel.updatedAt.toISOString(),
    });
    expect(
      (await db().label.findFirstOrThrow({ where: { trajectoryId: a2, annotatorId: res.id } })).revisedAfterUnblinding,
    ).toBe(false);
  });
});

describe("the agreement summed in the database", () => {
  it("equals the report computed from the label rows themselves, in every scope", async () => {
    // Runs after the tests above (their labels, study, gold label and blind revision), with the demo study.
    await seedDemo({ tasksPerBenchmark: 3 });
    const studies = await db().study.findMany({ select: { id: true } });
    expect(studies.length).toBeGreaterThan(0);
    const scopes: AgreementScope[] = [{}, { firstForms: true }, ...studies.map((s) => ({ studyId: s.id }))];
    for (const scope of scopes) {
      const points = await getLabelPoints(scope);
      const fromRows = agreementReport(points, await getGoldPoints(scope), scope.firstForms ?? false);
      const summed = await getAgreement(scope);
      // Krippendorff's alpha sums fractions, so its last bits may follow the order of the units.
      expect(summed.inter_annotator.alpha ?? 0).toBeCloseTo(fromRows.inter_annotator.alpha ?? 0, 12);
      const alphaAside = ({ by_category: _, monitors: _m, ...r }: AgreementReport) => ({
        ...r,
        inter_annotator: { ...r.inter_annotator, alpha: 0 },
        gold: r.gold && { ...r.gold, by_category: undefined },
      });
      expect(alphaAside(summed), JSON.stringify(scope)).toEqual(alphaAside(fromRows));
      // Every demo label and panel gives the four: each category counts every label the overall does.
      const n = summed.overall.attempt.n;
      expect(summed.by_category!.map((c) => [c.category, c.attempt.n])).toEqual(
        n ? ["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER"].map((k) => [k, n]) : [],
      );
      // So does every gold label: against gold, each category's panel row counts what the panel's row does.
      const panelRows = summed.gold?.by_category?.filter((c) => c.kind === "panel") ?? [];
      expect(panelRows.map((c) => [c.category, c.attempt.n])).toEqual(
        summed.gold?.panel.attempt.n
          ? ["UPSTREAM", "LOCAL_GIT", "MEMORY", "OTHER"].map((k) => [k, summed.gold!.panel.attempt.n])
          : [],
      );
    }
    const all = await getAgreement();
    expect(all.overall.attempt.n).toBeGreaterThan(20);
    expect(all.judges.length).toBeGreaterThanOrEqual(3);
    expect(all.inter_annotator.units).toBeGreaterThan(0);
    expect(all.gold!.by_category!.filter((c) => c.kind === "panel")).toHaveLength(4);
  });
});
