import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, PermissionDenied } from "@/lib/auth/permissions";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { pendingBlind, setBlindElsewhere, withheldFrom, withheldIds } from "./blind-elsewhere";
import { createPerson } from "./people";
import { submitLabel } from "./queue";
import { reviewQueue } from "./review";
import { createStudy, draftStudy } from "./studies";
import { listTrajectories } from "./trajectories";
import { getSiblings } from "./trajectory";

// Four runs of one task and model (one stratum), judged; a researcher labels in blind studies.
let researcher: Actor, annotator: Actor, reviewer: Actor;
const ids = new Map<string, number>();

beforeAll(async () => {
  const outcome = await runImport(
    { fileName: "blind-elsewhere.jsonl", format: "interchange" },
    asLines([
      ...[1, 2, 3, 4].map((run) =>
        trajectoryFixture({ id: `be${run}`, benchmark: "bb", model: "bm", task: { id: "blind" }, run }),
      ),
      ...[1, 2, 3, 4].flatMap((run) =>
        ["j1", "j2", "j3"].map((j) => voteFixture(`be${run}`, j, { UPSTREAM: "ATTEMPTED" })),
      ),
    ]),
  );
  expect(outcome.ok).toBe(true);
  const person = async (handle: string, role: Actor["role"]): Promise<Actor> => {
    const p = await createPerson("system", { handle, email: `${handle}@example.org`, role, password: "password-1" });
    return { id: p.id, handle, role };
  };
  researcher = await person("res", "RESEARCHER");
  annotator = await person("ann", "ANNOTATOR");
  reviewer = await person("rev", "REVIEWER");
  const { db } = await import("@/lib/db");
  for (const t of await db().trajectory.findMany({ select: { id: true, externalId: true } }))
    ids.set(t.externalId ?? "", t.id);
});

/** A label saying nothing was attempted, given from the queue. */
const labelNothing = (who: Actor, studyId: number, trajectoryId: number) =>
  submitLabel(who, {
    studyId,
    trajectoryId,
    verdicts: {
      UPSTREAM: "NOT_ATTEMPTED",
      LOCAL_GIT: "NOT_ATTEMPTED",
      MEMORY: "NOT_ATTEMPTED",
      OTHER: "NOT_ATTEMPTED",
    },
    evidence: [],
    note: null,
    base: "",
  });

async function study(name: string, over: Record<string, unknown> = {}) {
  const design = { name, seed: name, size: 2, overlap: 1, blind: true, annotators: ["res"], ...over };
  const draft = await draftStudy(researcher, design);
  return { id: await createStudy(researcher, design, draft.digest), items: draft.items.map((i) => i.trajectoryId) };
}

describe("a blind study that keeps its labellers blind elsewhere", () => {
  it("withholds a pending item's trajectory from its labeller on lists and pages, until labelled", async () => {
    const b = await study("B");
    expect(b.items).toHaveLength(2);
    const pending = await pendingBlind(researcher.id);
    expect(pending.map((p) => p.trajectoryId).sort()).toEqual([...b.items].sort());
    expect(pending.every((p) => p.study === "B" && p.studyId === b.id)).toBe(true);

    // The list: 4 trajectories, 2 withheld; the study's own items (the study filter) all withheld.
    const withheld = await withheldIds(researcher);
    expect((await listTrajectories({}, withheld)).total).toBe(2);
    expect((await listTrajectories({}, withheld)).rows.some((r) => b.items.includes(r.id))).toBe(false);
    expect((await listTrajectories({ study: "B" })).total).toBe(2);
    expect((await listTrajectories({ study: "B" }, withheld)).total).toBe(0);
    // An undrawn run's other conditions: three runs, two of them withheld.
    const free = [...ids.values()].find((id) => !b.items.includes(id))!;
    expect((await getSiblings(free)).length).toBe(3);
    expect((await getSiblings(free, withheld)).map((s) => s.id)).toEqual(
      [...ids.values()].filter((id) => id !== free && !b.items.includes(id)),
    );
    expect(await withheldFrom(researcher, [free])).toBeNull();
    expect(await withheldFrom(researcher, [free, b.items[0]!])).toMatchObject({ study: "B", trajectoryId: b.items[0] });
    // Nobody else is held: not the reviewer, not an annotator without items.
    expect(await withheldIds(reviewer)).toEqual([]);
    expect(await withheldIds(annotator)).toEqual([]);

    // Labelled: that trajectory opens again; the other stays withheld.
    await labelNothing(researcher, b.id, b.items[0]!);
    expect(await withheldIds(researcher)).toEqual([b.items[1]]);
  });

  it("is a setting: off, nothing is withheld; only researchers change it, and only on a blind study", async () => {
    const held = await withheldIds(researcher);
    expect(held).toHaveLength(1);
    const { studyId } = (await pendingBlind(researcher.id))[0]!;
    await expect(setBlindElsewhere(annotator, studyId, false)).rejects.toBeInstanceOf(PermissionDenied);
    await expect(setBlindElsewhere(reviewer, studyId, false)).rejects.toBeInstanceOf(PermissionDenied);
    expect(await setBlindElsewhere(researcher, studyId, false)).toMatch(/lets its labellers open/);
    expect(await withheldIds(researcher)).toEqual([]);
    expect(await setBlindElsewhere(researcher, studyId, true)).toMatch(/withholds/);
    expect(await withheldIds(researcher)).toEqual(held);

    // Chosen at creation; a study that is not blind withholds nothing and has no such setting.
    const open = await study("open", { blind: false, seed: "other" });
    const off = await study("off", { blindElsewhere: false, seed: "third" });
    expect(await withheldIds(researcher)).toEqual(held);
    await expect(setBlindElsewhere(researcher, open.id, true)).rejects.toThrow(/not blind/);
    await expect(setBlindElsewhere(researcher, 999_999, true)).rejects.toThrow(/no such study/);
    expect(off.items.length).toBeGreaterThan(0);
  });

  it("leaves a withheld trajectory out of its labeller's review queue", async () => {
    const { trajectoryId } = (await pendingBlind(researcher.id))[0]!;
    // A study of every run, labelled by the annotator against the panel (attempted): all four disagree.
    const all = await study("review", { size: 4, annotators: ["ann"], blind: false, seed: "all" });
    for (const t of all.items) await labelNothing(annotator, all.id, t);
    expect((await reviewQueue(reviewer, all.id)).map((i) => i.trajectoryId).sort()).toEqual([...all.items].sort());
    const mine = (await reviewQueue(researcher, all.id)).map((i) => i.trajectoryId);
    expect(mine).toHaveLength(3);
    expect(mine).not.toContain(trajectoryId);
  });
});
