import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import type { Verdict, Verdicts } from "@/lib/domain/verdicts";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture } from "@/prisma/factories";
import { writeLabel } from "./labels";
import { createPerson } from "./people";
import { submitLabel } from "./queue";
import { statement } from "./sql";
import { createStudy, draftStudy } from "./studies";

// A label written over the version its writer read, or not at all: the labelling queue's save reads
// without a lock and writes in one statement (decision 43).
let researcher: Actor, ann: Actor;
const trajectory = (externalId: string) =>
  db().trajectory.findFirstOrThrow({ where: { externalId }, select: { id: true, labelCount: true } });
const verdicts = (upstream: Verdict): Verdicts => ({
  UPSTREAM: upstream,
  LOCAL_GIT: "NOT_ATTEMPTED",
  MEMORY: "NOT_ATTEMPTED",
  OTHER: "NOT_ATTEMPTED",
});

beforeAll(async () => {
  const t = (id: string, network: boolean) =>
    trajectoryFixture({ id, benchmark: "lb", model: "lm", task: { id }, run: 1, network });
  expect(
    (await runImport({ fileName: "l.jsonl", format: "interchange" }, asLines([t("l1", true), t("l2", false)]))).ok,
  ).toBe(true);
  const person = async (handle: string, role: Actor["role"]): Promise<Actor> => {
    const p = await createPerson("system", { handle, email: `${handle}@example.org`, role, password: "password-1" });
    return { id: p.id, handle, role };
  };
  researcher = await person("res", "RESEARCHER");
  ann = await person("ann", "ANNOTATOR");
});

describe("a label written over the version read", () => {
  it("lands over the version it names, or over none, and otherwise writes nothing", async () => {
    const { id: trajectoryId, labelCount } = await trajectory("l1");
    const write = (replaces: string | null, upstream: Verdict, at: Date) =>
      writeLabel(
        { query: statement },
        {
          trajectoryId,
          annotatorId: ann.id,
          editorId: ann.id,
          importId: null,
          madeWith: "form",
          verdicts: verdicts(upstream),
          evidence: [],
          note: null,
          at,
          replaces,
        },
        null,
      );
    const stored = () =>
      db().label.findFirstOrThrow({ where: { trajectoryId, annotatorId: ann.id }, include: { revisions: true } });

    // A first label: written, with its revision, and counted on its trajectory.
    expect(labelCount).toBe(0);
    expect(await write(null, "ATTEMPTED", new Date("2026-12-01T10:00:00.001Z"))).toBe(true);
    expect((await trajectory("l1")).labelCount).toBe(labelCount + 1);
    const first = await stored();
    expect(first.revisions).toHaveLength(1);
    const [{ version } = { version: "" }] = await statement<{ version: string }>(
      `SELECT "updatedAt"::text AS version FROM label WHERE id = $1`,
      [first.id],
    );
    // Another "first" label, and a write over a version that is not the stored one: nothing moves.
    expect(await write(null, "SUCCESSFUL", new Date("2026-12-01T10:00:01Z"))).toBe(false);
    expect(await write("2026-12-01 10:00:00", "SUCCESSFUL", new Date("2026-12-01T10:00:02Z"))).toBe(false);
    expect(await stored()).toEqual(first);
    expect((await trajectory("l1")).labelCount).toBe(labelCount + 1);
    // Over the stored version (milliseconds and all): written, a second revision, still one label counted.
    expect(version).toBe("2026-12-01 10:00:00.001");
    expect(await write(version, "SUCCESSFUL", new Date("2026-12-01T10:00:03Z"))).toBe(true);
    const second = await stored();
    expect(second.verdicts).toMatchObject({ UPSTREAM: "SUCCESSFUL" });
    expect(second.revisions).toHaveLength(2);
    expect((await trajectory("l1")).labelCount).toBe(labelCount + 1);
  });

  it.runIf(process.env.DATABASE_URL)(
    "reads again when another save lands between a save's read and its write",
    async () => {
      const draft = { name: "cas", seed: "s", size: 1, overlap: 1, blind: false, annotators: ["ann"] };
      const d = await draftStudy(researcher, draft);
      const studyId = await createStudy(researcher, draft, d.digest);
      // l2: the test above labelled l1.
      const { id: trajectoryId } = await trajectory("l2");
      expect(d.items.map((i) => i.trajectoryId)).toContain(trajectoryId);
      const first = await submitLabel(ann, {
        studyId,
        trajectoryId,
        verdicts: verdicts("ATTEMPTED"),
        evidence: [],
        note: null,
        base: "",
      });
      const { id: labelId } = await db().label.findFirstOrThrow({ where: { trajectoryId, annotatorId: ann.id } });
      // Another tab's save of the same form, held open on another connection: the save below reads the
      // first version, and its write waits for the row.
      const holder = await currentDb().pool!.connect();
      let saving: Promise<Awaited<ReturnType<typeof submitLabel>>> | null = null;
      try {
        await holder.query("BEGIN");
        await holder.query(`SELECT id FROM label WHERE id = $1 FOR UPDATE`, [labelId]);
        saving = submitLabel(ann, {
          studyId,
          trajectoryId,
          verdicts: verdicts("ATTEMPTED"),
          evidence: [],
          note: "from the other tab",
          base: first.updatedAt,
        });
        let waits = 0;
        for (let i = 0; i < 300 && !waits; i++) {
          await new Promise((r) => setTimeout(r, 50));
          const [row] = await statement<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%WITH written AS%'`,
          );
          waits = row!.n;
        }
        expect(waits).toBe(1);
        await holder.query(
          `UPDATE label SET note = 'from the other tab', "updatedAt" = "updatedAt" + interval '5 ms' WHERE id = $1`,
          [labelId],
        );
      } finally {
        await holder.query("COMMIT").catch(() => {});
        holder.release();
      }
      // Its write found another version; read again, that version is the form it brings.
      const second = await saving!;
      expect(second.status).toBe("unchanged");
      expect(new Date(second.updatedAt).getTime()).toBe(new Date(first.updatedAt).getTime() + 5);
      const label = await db().label.findFirstOrThrow({ where: { id: labelId }, include: { revisions: true } });
      expect(label.revisions).toHaveLength(1);
      expect((await db().trajectory.findUniqueOrThrow({ where: { id: trajectoryId } })).labelCount).toBe(1);
    },
  );
});

describe("how a label was made", () => {
  it("a form's, a file's, or what the file says; exported as made_with and imported again as it was", async () => {
    // A form: the queue's save (l1 was labelled by ann through it above).
    const { id: l1 } = await trajectory("l1");
    expect((await db().label.findFirstOrThrow({ where: { trajectoryId: l1, annotatorId: ann.id } })).madeWith).toBe(
      "form",
    );
    // A file: a label and a gold label with nothing said, a gold label that says it was a form's.
    const key = { benchmark: "lb", model: "lm", task: "l2", network: false, prompt: "vanilla", run: 1 };
    const verdictsOf = {
      UPSTREAM: "NOT_ATTEMPTED",
      LOCAL_GIT: "NOT_ATTEMPTED",
      MEMORY: "NOT_ATTEMPTED",
      OTHER: "NOT_ATTEMPTED",
    };
    const records = [
      { type: "label", annotator: "filed", trajectory: key, verdicts: verdictsOf },
      {
        type: "gold",
        adjudicator: "gold-filed",
        trajectory: key,
        verdicts: verdictsOf,
        created_at: "2026-01-01T00:00:00Z",
      },
      {
        type: "gold",
        adjudicator: "gold-formed",
        trajectory: key,
        verdicts: verdictsOf,
        created_at: "2026-01-02T00:00:00Z",
        made_with: "form",
      },
    ];
    expect((await runImport({ fileName: "made.jsonl", format: "interchange" }, asLines(records as never[]))).ok).toBe(
      true,
    );
    const { id: l2 } = await trajectory("l2");
    const made = async () => ({
      label: (await db().label.findFirstOrThrow({ where: { trajectoryId: l2, annotator: { handle: "filed" } } }))
        .madeWith,
      gold: (await db().goldLabel.findMany({ where: { trajectoryId: l2 }, orderBy: { createdAt: "asc" } })).map(
        (g) => g.madeWith,
      ),
    });
    expect(await made()).toEqual({ label: "import", gold: ["import", "form"] });
    // Exported, each says how it was made.
    const { exportGold, exportLabels } = await import("@/lib/work/export");
    const exported: Array<Record<string, unknown>> = [];
    for await (const r of exportLabels(l2)) exported.push(r);
    for await (const r of exportGold(l2)) exported.push(r);
    // (ann's label on l2, a form's, was given above on PostgreSQL.)
    const filed = exported.filter((r) => r.annotator !== "ann");
    expect(filed.map((r) => r.made_with)).toEqual(["import", "import", "form"]);
    // A bad value names its field and line.
    const bad = await runImport(
      { fileName: "made-bad.jsonl", format: "interchange" },
      asLines([{ ...records[0], made_with: "hand" }] as never[]),
    );
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).toMatch(/made_with must be \\"form\\", \\"import\\" or \\"api\\"/);
  });
});
