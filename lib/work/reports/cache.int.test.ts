import { describe, expect, it } from "vitest";
import { ImportContext } from "@/lib/data/import/context";
import { writeVotes } from "@/lib/data/import/votes";
import { createPerson } from "@/lib/data/people";
import { submitLabel } from "@/lib/data/queue";
import { transaction } from "@/lib/data/sql";
import { createStudy, draftStudy } from "@/lib/data/studies";
import { JudgeVoteRecordSchema } from "@/lib/formats/verdict-records";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { agreementNow, remembered, resultsNow } from "./cache";

const t = (id: string, run: number) =>
  trajectoryFixture({ id, benchmark: "cache-b", model: "cache-m", task: { id: "cache" }, run });
const importOk = async (records: unknown[]) =>
  expect((await runImport({ fileName: "cache.jsonl", format: "interchange" }, asLines(records as never[]))).ok).toBe(
    true,
  );

describe("remembered reports", () => {
  it("serve the same figures until an import or a label changes their inputs", async () => {
    await importOk([t("c1", 1), voteFixture("c1", "j1", { UPSTREAM: "SUCCESSFUL" })]);
    const first = await resultsNow();
    expect(await resultsNow()).toBe(first);
    expect(first.find((r) => r.row.benchmark === "cache-b")!.row.trajectories).toBe(1);

    await importOk([t("c2", 2), voteFixture("c2", "j1")]);
    const second = await resultsNow();
    expect(second).not.toBe(first);
    expect(second.find((r) => r.row.benchmark === "cache-b")!.row.trajectories).toBe(2);

    // A rejected import changes nothing: the figures stay remembered.
    expect(
      (await runImport({ fileName: "bad.jsonl", format: "interchange" }, asLines([{ type: "nonsense" }] as never[])))
        .ok,
    ).toBe(false);
    expect(await resultsNow()).toBe(second);

    // A label given in the queue changes agreement, not results.
    const res = await createPerson("system", {
      handle: "cache-res",
      email: "cache-res@example.org",
      role: "RESEARCHER",
      password: "password-1",
    });
    const actor = { id: res.id, handle: res.handle, role: "RESEARCHER" as const };
    const before = await agreementNow();
    expect(before.overall.attempt.n).toBe(0);
    const design = { name: "cache", seed: "s", size: 5, overlap: 1, blind: false, annotators: ["cache-res"] };
    const draft = await draftStudy(actor, design);
    const studyId = await createStudy(actor, design, draft.digest);
    const c1 = draft.items.find((i) => i.stratum.startsWith("cache-b|"))!;
    await submitLabel(actor, {
      studyId,
      trajectoryId: c1.trajectoryId,
      verdicts: { UPSTREAM: "SUCCESSFUL", LOCAL_GIT: "NOT_ATTEMPTED", MEMORY: "NOT_ATTEMPTED", OTHER: "NOT_ATTEMPTED" },
      base: "",
    });
    const after = await agreementNow();
    expect(after).not.toBe(before);
    expect(after.overall.attempt.n).toBe(1);
    expect(await resultsNow()).toBe(second);

    // A judge run writes votes without an import: results and agreement follow them.
    await transaction(async (sql) => {
      const ctx = new ImportContext(sql, null, new Date());
      await writeVotes(ctx, [
        { line: 0, record: JudgeVoteRecordSchema.parse(voteFixture("c2", "j2", { UPSTREAM: "SUCCESSFUL" })) },
      ]);
      await ctx.refreshTouched();
    });
    const third = await resultsNow();
    expect(third).not.toBe(second);
    expect(await agreementNow()).not.toBe(after);
  });
});

describe("a report computed afresh while the data move", () => {
  const deferred = () => {
    let resolve!: (v: never[]) => void;
    const promise = new Promise<never[]>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  };

  it("is computed once; readers meanwhile get the figures computed last, the reader after it the new", async () => {
    const v1: never[] = [];
    let computed = 0;
    const once = (figures: Promise<never[]>) => () => {
      computed += 1;
      return figures;
    };
    expect(await remembered("swr-test", ["votes"], once(Promise.resolve(v1)))).toBe(v1);
    // Unchanged data: remembered, not computed.
    expect(await remembered("swr-test", ["votes"], once(Promise.resolve([])))).toBe(v1);
    expect(computed).toBe(1);

    await importOk([t("c3", 3), voteFixture("c3", "j1")]);
    const fresh = deferred();
    const first = remembered("swr-test", ["votes"], once(fresh.promise));
    // Let the first reader find nothing under way and start.
    while (computed < 2) await new Promise((r) => setTimeout(r, 5));
    // A second reader of the same data waits for the same computation; none computes again.
    const same = remembered("swr-test", ["votes"], once(Promise.resolve([])));
    await importOk([t("c4", 4), voteFixture("c4", "j1")]);
    // Newer data still, with the computation under way: the figures computed last, at once.
    expect(await remembered("swr-test", ["votes"], once(Promise.resolve([])))).toBe(v1);
    expect(computed).toBe(2);
    const v2: never[] = [];
    fresh.resolve(v2);
    expect(await first).toBe(v2);
    expect(await same).toBe(v2);
    // Nothing under way now: the next reader computes the newest figures and waits for them.
    const v3: never[] = [];
    expect(await remembered("swr-test", ["votes"], once(Promise.resolve(v3)))).toBe(v3);
    expect(computed).toBe(3);
  });

  it("forgets a failed computation", async () => {
    await importOk([t("c5", 5), voteFixture("c5", "j1")]);
    await expect(remembered("swr-fail", ["votes"], () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    const v: never[] = [];
    expect(await remembered("swr-fail", ["votes"], () => Promise.resolve(v))).toBe(v);
  });
});
