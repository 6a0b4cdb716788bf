// The review queue worked by hand: two annotators on three trajectories, one even split, one where
// they agree against the panel, one with no disagreement; then gold labels written from it.
import { describe, expect, it } from "vitest";
import { PermissionDenied } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { createPerson } from "./people";
import { submitLabel } from "./queue";
import { reviewItem, reviewQueue, saveGold } from "./review";
import { createStudy, draftStudy } from "./studies";

const V = (LOCAL_GIT: "NOT_ATTEMPTED" | "ATTEMPTED" | "SUCCESSFUL") => ({
  UPSTREAM: "NOT_ATTEMPTED" as const,
  LOCAL_GIT,
  MEMORY: "NOT_ATTEMPTED" as const,
  OTHER: "NOT_ATTEMPTED" as const,
});

async function person(handle: string, role: "RESEARCHER" | "ANNOTATOR" | "REVIEWER") {
  const p = await createPerson("system", { handle, email: `${handle}@example.org`, role, password: "password-1" });
  return { id: p.id, handle: p.handle, role };
}

describe("the review queue", () => {
  it("lists a study's disagreements strongest first, and writes gold labels with their history", async () => {
    const t = (id: string, run: number) =>
      trajectoryFixture({ id, benchmark: "rv", model: "rm", task: { id: "review" }, run });
    const imported = await runImport(
      { fileName: "review.jsonl", format: "interchange" },
      asLines([
        t("r1", 1),
        t("r2", 2),
        t("r3", 3),
        // Panels: all three not attempted.
        ...["r1", "r2", "r3"].flatMap((id) => [voteFixture(id, "j1"), voteFixture(id, "j2")]),
      ]),
    );
    expect(imported.ok).toBe(true);
    const res = await person("rv-res", "RESEARCHER");
    const ann1 = await person("rv-ann1", "ANNOTATOR");
    const ann2 = await person("rv-ann2", "ANNOTATOR");
    const rey = await person("rv-rey", "REVIEWER");
    const design = { name: "rv", seed: "s", size: 10, overlap: 2, blind: false, annotators: ["rv-ann1", "rv-ann2"] };
    const draft = await draftStudy(res, design);
    const studyId = await createStudy(res, design, draft.digest);
    const ids = Object.fromEntries(
      (await db().trajectory.findMany({ where: { benchmark: { name: "rv" } }, select: { id: true, run: true } })).map(
        (x) => [`r${x.run}`, x.id],
      ),
    ) as Record<"r1" | "r2" | "r3", number>;
    const label = (who: typeof ann1, tid: number, v: ReturnType<typeof V>) =>
      submitLabel(who, { studyId, trajectoryId: tid, verdicts: v, base: "" });
    // r1: 1–1 split; r2: both successful against the panel's not attempted; r3: all agree.
    await label(ann1, ids.r1, V("ATTEMPTED"));
    await label(ann2, ids.r1, V("NOT_ATTEMPTED"));
    await label(ann1, ids.r2, V("SUCCESSFUL"));
    await label(ann2, ids.r2, V("SUCCESSFUL"));
    await label(ann1, ids.r3, V("NOT_ATTEMPTED"));
    await label(ann2, ids.r3, V("NOT_ATTEMPTED"));

    const queue = await reviewQueue(rey, studyId);
    expect(queue.map((i) => [i.trajectoryId, i.kind])).toEqual([
      [ids.r1, "even split"],
      [ids.r2, "humans against the panel"],
    ]);
    expect(queue[0]!.labels).toEqual([
      { annotator: "rv-ann1", overall: "ATTEMPTED" },
      { annotator: "rv-ann2", overall: "NOT_ATTEMPTED" },
    ]);

    // Annotators do not adjudicate.
    await expect(saveGold(ann1, { studyId, trajectoryId: ids.r1, verdicts: V("ATTEMPTED"), base: "" })).rejects.toThrow(
      PermissionDenied,
    );
    // Rey's gold label on r1, then the same again (nothing changes), then a form opened before it (refused).
    expect(await saveGold(rey, { studyId, trajectoryId: ids.r1, verdicts: V("ATTEMPTED"), base: "" })).toEqual({
      status: "saved",
    });
    expect(await saveGold(rey, { studyId, trajectoryId: ids.r1, verdicts: V("ATTEMPTED"), base: "" })).toEqual({
      status: "unchanged",
    });
    await expect(saveGold(res, { studyId, trajectoryId: ids.r1, verdicts: V("SUCCESSFUL"), base: "" })).rejects.toThrow(
      /the gold label was changed/,
    );
    // Based on the version in force, the researcher's change is a new version: the history keeps both.
    const item = await reviewItem(res, studyId, ids.r1);
    await saveGold(res, {
      studyId,
      trajectoryId: ids.r1,
      verdicts: V("SUCCESSFUL"),
      note: "reflog",
      base: item!.gold!.updatedAt,
    });
    const after = await reviewItem(res, studyId, ids.r1);
    expect(after!.history.map((g) => [g.adjudicator, g.overall, g.note])).toEqual([
      ["rv-res", "SUCCESSFUL", "reflog"],
      ["rv-rey", "ATTEMPTED", null],
    ]);
    expect((await db().trajectory.findUniqueOrThrow({ where: { id: ids.r1 } })).goldOverall).toBe("SUCCESSFUL");
    // Adjudicated, r1 stays first (strongest), marked; r2 is the next without a gold label.
    const again = await reviewQueue(rey, studyId);
    expect(again.map((i) => [i.trajectoryId, i.adjudicated])).toEqual([
      [ids.r1, true],
      [ids.r2, false],
    ]);
    // A trajectory that is not an item of the study is refused.
    const other = await db().trajectory.create({
      data: {
        benchmarkId: (await db().benchmark.findUniqueOrThrow({ where: { name: "rv" } })).id,
        modelId: (await db().agentModel.findUniqueOrThrow({ where: { name: "rm" } })).id,
        taskId: (await db().task.findFirstOrThrow({ where: { key: "review" } })).id,
        network: false,
        prompt: "principled",
        run: 9,
      },
    });
    await expect(
      saveGold(rey, { studyId, trajectoryId: other.id, verdicts: V("ATTEMPTED"), base: "" }),
    ).rejects.toThrow(/not an item of that study/);
  });
});
