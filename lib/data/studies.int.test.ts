import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, PermissionDenied } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { createPerson } from "./people";
import { LabelConflict, type LabelForm, queueItem, submitLabel } from "./queue";
import { createStudy, draftStudy, listStudies, myQueue, nextPosition, StudyError } from "./studies";

// Six trajectories in two strata (network on / off), each judged by three judges whose rationale
// carries a marker a blind payload must never hold.
const SECRET = "JUDGE-RATIONALE-MARKER";
let researcher: Actor, ann: Actor, ben: Actor, reviewer: Actor;

beforeAll(async () => {
  const t = (run: number, network: boolean) =>
    trajectoryFixture({
      id: `s${network ? "n" : "x"}${run}`,
      benchmark: "sb",
      model: "sm",
      task: { id: "study" },
      run,
      network,
    });
  const ids = [1, 2, 3].flatMap((r) => [`sn${r}`, `sx${r}`]);
  const outcome = await runImport(
    { fileName: "study.jsonl", format: "interchange" },
    asLines([
      ...[1, 2, 3].flatMap((r) => [t(r, true), t(r, false)]),
      ...ids.flatMap((id) =>
        ["j1", "j2", "j3"].map((j) =>
          voteFixture(id, j, { UPSTREAM: "SUCCESSFUL" }, { rationale: `${SECRET} ${id} ${j}` }),
        ),
      ),
    ]),
  );
  expect(outcome.ok).toBe(true);
  const person = async (handle: string, role: Actor["role"]): Promise<Actor> => {
    const p = await createPerson("system", { handle, email: `${handle}@example.org`, role, password: "password-1" });
    return { id: p.id, handle, role };
  };
  researcher = await person("res", "RESEARCHER");
  ann = await person("ann", "ANNOTATOR");
  ben = await person("ben", "ANNOTATOR");
  reviewer = await person("rev", "REVIEWER");
});

const design = (over: Record<string, unknown> = {}) => ({
  name: "S",
  seed: "seed-1",
  size: 2,
  overlap: 2,
  blind: true,
  annotators: ["ann", "ben"],
  ...over,
});
/** A drawn trajectory nobody has labelled yet (earlier tests label some of the six). */
async function unlabelled(items: ReadonlyArray<{ trajectoryId: number }>): Promise<number> {
  const done = new Set((await db().label.findMany({ select: { trajectoryId: true } })).map((l) => l.trajectoryId));
  const free = items.find((i) => !done.has(i.trajectoryId));
  if (!free) throw new Error("every drawn trajectory is labelled: widen the fixture");
  return free.trajectoryId;
}
const form = (studyId: number, trajectoryId: number, over: Partial<LabelForm> = {}): LabelForm => ({
  studyId,
  trajectoryId,
  verdicts: { UPSTREAM: "ATTEMPTED", LOCAL_GIT: "NOT_ATTEMPTED", MEMORY: "NOT_ATTEMPTED", OTHER: "NOT_ATTEMPTED" },
  evidence: [],
  note: null,
  base: "",
  ...over,
});

describe("studies", () => {
  it("draws the same sample from the same seed, 2 per stratum, every item with both annotators", async () => {
    const a = await draftStudy(researcher, design());
    const b = await draftStudy(researcher, design());
    expect(a.items).toEqual(b.items);
    expect(a.digest).toBe(b.digest);
    // Two strata of three trajectories each, two drawn from each: four items, each labelled by ann and ben.
    expect(a.strata.map((s) => [s.stratum, s.pool, s.drawn])).toEqual([
      ["sb|sm|net|vanilla", 3, 2],
      ["sb|sm|nonet|vanilla", 3, 2],
    ]);
    expect(a.items).toHaveLength(4);
    expect(a.items.every((i) => [...i.annotators].sort().join() === "ann,ben")).toBe(true);
    expect(a.load).toEqual([
      { handle: "ann", items: 4 },
      { handle: "ben", items: 4 },
    ]);
    // A stratum's own size: none from "net", all three from "nonet".
    const c = await draftStudy(researcher, design({ sizes: { "sb|sm|net|vanilla": 0, "sb|sm|nonet|vanilla": 5 } }));
    expect(c.strata.map((s) => s.drawn)).toEqual([0, 3]);
  });

  it("refuses a save unlike its preview, a duplicate name, an overlap above the annotators", async () => {
    await expect(createStudy(researcher, design({ name: "stale" }), "0000000000000000")).rejects.toThrow(
      /changed since the preview/,
    );
    await expect(draftStudy(researcher, design({ overlap: 3 }))).rejects.toThrow(StudyError);
    await expect(draftStudy(researcher, design({ annotators: ["ann", "nobody"] }))).rejects.toThrow(
      /not annotators who can sign in: nobody/,
    );
    const d = await draftStudy(researcher, design({ name: "dup" }));
    await createStudy(researcher, design({ name: "dup" }), d.digest);
    await expect(createStudy(researcher, design({ name: "dup" }), d.digest)).rejects.toThrow(/exists/);
  });
});

describe("the labelling queue", () => {
  it("hides the judges of a blind study from an annotator until their label is given", async () => {
    const d = await draftStudy(researcher, design({ name: "blind" }));
    const id = await createStudy(researcher, design({ name: "blind" }), d.digest);
    const [q] = (await myQueue(ann)).filter((s) => s.id === id);
    expect(q).toMatchObject({ assigned: 4, done: 0, next: 0 });

    const item = (await queueItem(ann, id, 0))!;
    expect(item.judges).toBeNull();
    const payload = JSON.stringify(item);
    expect(payload).not.toContain(SECRET);
    expect(payload).not.toMatch(/panel|SUCCESSFUL/);

    expect((await submitLabel(ann, form(id, item.trajectory.id))).status).toBe("saved");
    const after = (await queueItem(ann, id, 0))!;
    expect(after.judges?.votes.map((v) => v.rationale)).toEqual(
      ["j1", "j2", "j3"].map((j) => expect.stringMatching(new RegExp(`^${SECRET} s[nx]\\d ${j}$`))),
    );
    expect(after.label?.verdicts.UPSTREAM).toBe("ATTEMPTED");
    // ben has not labelled it: still blind for him.
    expect((await queueItem(ben, id, 0))!.judges).toBeNull();
    expect(await nextPosition(ann, id)).toBe(1);
    expect((await myQueue(ann)).find((s) => s.id === id)).toMatchObject({ done: 1, next: 1 });
  });

  it("shows the judges at once in a study that is not blind", async () => {
    const d = await draftStudy(researcher, design({ name: "open", blind: false }));
    const id = await createStudy(researcher, design({ name: "open", blind: false }), d.digest);
    expect((await queueItem(ann, id, 1))!.judges?.votes).toHaveLength(3);
  });

  it("keeps one label per annotator under double submits and two tabs, and a history of edits", async () => {
    const d = await draftStudy(researcher, design({ name: "race" }));
    const id = await createStudy(researcher, design({ name: "race" }), d.digest);
    const trajectoryId = await unlabelled(d.items);
    const labels = () =>
      db().label.findMany({ where: { trajectoryId }, include: { revisions: true, annotator: true } });
    const before = (await labels()).filter((l) => l.annotator.handle !== "ann" && l.annotator.handle !== "ben");

    // A double click: the same form twice at once. Two annotators at once: two labels.
    const results = await Promise.all([
      submitLabel(ann, form(id, trajectoryId)),
      submitLabel(ann, form(id, trajectoryId)),
      submitLabel(ben, form(id, trajectoryId, { note: "ben's" })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["saved", "saved", "unchanged"]);
    let rows = await labels();
    expect(rows.length - before.length).toBe(2);
    const annLabel = rows.find((l) => l.annotator.handle === "ann")!;
    expect(annLabel.revisions).toHaveLength(1);
    expect(annLabel.revisions[0]).toMatchObject({ editorId: ann.id, before: null });
    expect(annLabel.revisions[0]!.after).toMatchObject({ verdicts: { UPSTREAM: "ATTEMPTED" }, note: null });
    expect(rows.find((l) => l.annotator.handle === "ben")!.note).toBe("ben's");
    expect((await db().trajectory.findUnique({ where: { id: trajectoryId } }))!.labelCount).toBe(rows.length);

    // Two tabs opened on the saved label: the first edit lands, the second (based on the same version) is refused.
    const base = annLabel.updatedAt.toISOString();
    const edit = await submitLabel(
      ann,
      form(id, trajectoryId, {
        base,
        verdicts: {
          UPSTREAM: "SUCCESSFUL",
          LOCAL_GIT: "NOT_ATTEMPTED",
          MEMORY: "NOT_ATTEMPTED",
          OTHER: "NOT_ATTEMPTED",
        },
      }),
    );
    expect(edit.status).toBe("saved");
    await expect(submitLabel(ann, form(id, trajectoryId, { base, note: "other tab" }))).rejects.toThrow(LabelConflict);
    rows = await labels();
    const edited = rows.find((l) => l.annotator.handle === "ann")!;
    expect(edited.verdicts).toMatchObject({ UPSTREAM: "SUCCESSFUL" });
    expect(edited.overall).toBe("SUCCESSFUL");
    expect(edited.revisions).toHaveLength(2);
    const last = edited.revisions.sort((a, b) => a.id - b.id)[1]!;
    expect(last.editorId).toBe(ann.id);
    expect(last.before).toMatchObject({ verdicts: { UPSTREAM: "ATTEMPTED" } });
    expect(last.after).toMatchObject({ verdicts: { UPSTREAM: "SUCCESSFUL" } });
    // The trajectory's label count follows.
    expect((await db().trajectory.findUnique({ where: { id: trajectoryId } }))!.labelCount).toBe(rows.length);
  });

  it("refuses the second of two different first forms given at once (two tabs), keeping the first", async () => {
    const d = await draftStudy(researcher, design({ name: "two first forms" }));
    const id = await createStudy(researcher, design({ name: "two first forms" }), d.digest);
    const trajectoryId = await unlabelled(d.items);
    const countBefore = (await db().trajectory.findUnique({ where: { id: trajectoryId } }))!.labelCount;
    const tabs = await Promise.allSettled([
      submitLabel(ann, form(id, trajectoryId, { note: "first tab" })),
      submitLabel(ann, form(id, trajectoryId, { note: "second tab" })),
    ]);
    expect(tabs.map((t) => t.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = tabs.find((t) => t.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(LabelConflict);
    const kept = await db().label.findMany({
      where: { trajectoryId, annotatorId: ann.id },
      include: { revisions: true },
    });
    expect(kept).toHaveLength(1);
    expect(kept[0]!.revisions).toHaveLength(1);
    // The stored note is the landed tab's, and its revision says so.
    const landed = tabs.indexOf(tabs.find((t) => t.status === "fulfilled")!);
    expect(kept[0]!.note).toBe(landed === 0 ? "first tab" : "second tab");
    expect(kept[0]!.revisions[0]!.after).toMatchObject({ note: kept[0]!.note });
    expect((await db().trajectory.findUnique({ where: { id: trajectoryId } }))!.labelCount).toBe(countBefore + 1);
  });
});

describe("permissions at the server", () => {
  // Worked out by hand from the issue: researchers do everything; annotators label their own
  // queue; reviewers read and write nothing.
  const cases: Array<
    [string, (a: Actor, studyId: number) => Promise<unknown>, Record<"RESEARCHER" | "ANNOTATOR" | "REVIEWER", boolean>]
  > = [
    [
      "draw a study",
      (a) => draftStudy(a, design({ name: "perm" })),
      { RESEARCHER: true, ANNOTATOR: false, REVIEWER: false },
    ],
    ["list studies", (a) => listStudies(a), { RESEARCHER: true, ANNOTATOR: false, REVIEWER: true }],
    ["read a queue", (a) => myQueue(a), { RESEARCHER: true, ANNOTATOR: true, REVIEWER: false }],
    ["open a queue item", (a, s) => queueItem(a, s, 0), { RESEARCHER: true, ANNOTATOR: true, REVIEWER: false }],
    [
      "add a person",
      (a) =>
        createPerson(a, {
          handle: `p-${a.handle}`,
          email: `p-${a.handle}@example.org`,
          role: "ANNOTATOR",
          password: "password-2",
        }),
      { RESEARCHER: true, ANNOTATOR: false, REVIEWER: false },
    ],
  ];
  it.each(cases)("%s", async (_, call, allowed) => {
    const d = await draftStudy(researcher, design({ name: `perm-${_}` }));
    const id = await createStudy(researcher, design({ name: `perm-${_}` }), d.digest);
    for (const actor of [researcher, ann, reviewer]) {
      const run = call(actor, id);
      if (allowed[actor.role]) await expect(run).resolves.not.toThrow();
      else await expect(run).rejects.toThrow(PermissionDenied);
    }
  });

  it("lets an annotator label only items assigned to them, and a reviewer none", async () => {
    const d = await draftStudy(researcher, design({ name: "own", annotators: ["ann"], overlap: 1, size: 3 }));
    const id = await createStudy(
      researcher,
      design({ name: "own", annotators: ["ann"], overlap: 1, size: 3 }),
      d.digest,
    );
    const trajectoryId = await unlabelled(d.items);
    await expect(submitLabel(ben, form(id, trajectoryId))).rejects.toThrow(PermissionDenied);
    await expect(submitLabel(reviewer, form(id, trajectoryId))).rejects.toThrow(PermissionDenied);
    // Refused with nothing written: ben's first form is not written on an item not assigned to him.
    expect(await db().label.count({ where: { trajectoryId, annotatorId: { in: [ben.id, reviewer.id] } } })).toBe(0);
    expect(await queueItem(ben, id, 0)).toBeNull();
    await expect(submitLabel(ann, form(id, trajectoryId))).resolves.toMatchObject({ status: "saved" });
  });
});
