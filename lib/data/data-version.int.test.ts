// The data versions pages are kept by (lib/web/page-cache.ts): a committed write bumps its kind
// once per transaction, whatever the rows; a rolled-back one leaves it; other kinds stay.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";

const versions = async () =>
  Object.fromEntries(
    (await db().$queryRaw<Array<{ kind: string; n: bigint }>>`SELECT kind, n FROM data_version`).map((v) => [
      v.kind,
      Number(v.n),
    ]),
  );

describe("data versions", () => {
  it("count committed transactions per kind, once each however many rows", async () => {
    const before = await versions();
    const ok = await runImport(
      { fileName: "versions.jsonl", format: "interchange" },
      asLines([
        ...[1, 2, 3].map((run) => trajectoryFixture({ id: `dv${run}`, benchmark: "dv", task: { id: "t" }, run })),
        ...[1, 2, 3].flatMap((run) => ["j1", "j2"].map((j) => voteFixture(`dv${run}`, j))),
      ]),
    );
    expect(ok.ok).toBe(true);
    const after = await versions();
    // One import: trajectories and votes moved (by the transactions that wrote them), nothing else.
    expect(after.trajectories).toBeGreaterThan(before.trajectories!);
    expect(after.votes).toBeGreaterThan(before.votes!);
    for (const kind of ["labels", "gold", "studies", "reports", "people", "rules"])
      expect(after[kind]).toBe(before[kind]);

    // One transaction of many rows: exactly one bump.
    await db().$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE trajectory SET metadata = metadata || '{"dv": 1}' WHERE "externalId" LIKE 'dv%'`;
      await tx.$executeRaw`UPDATE trajectory SET metadata = metadata || '{"dv": 2}' WHERE "externalId" = 'dv1'`;
    });
    expect((await versions()).trajectories).toBe(after.trajectories! + 1);

    // Rolled back: no bump.
    await db()
      .$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE trajectory SET metadata = metadata || '{"dv": 3}'`;
        throw new Error("roll back");
      })
      .catch(() => {});
    expect((await versions()).trajectories).toBe(after.trajectories! + 1);

    // An update that changes nothing, or only what the votes, labels and gold labels keep on the
    // trajectory: not the trajectories' content, no bump.
    await db().$executeRaw`UPDATE trajectory SET run = run WHERE "externalId" LIKE 'dv%'`;
    await db()
      .$executeRaw`UPDATE trajectory SET "panelVerdict" = 'ATTEMPTED', "voteCount" = 7 WHERE "externalId" = 'dv1'`;
    expect((await versions()).trajectories).toBe(after.trajectories! + 1);

    // A vote that moves the panel's verdict: votes only.
    const beforeVote = await versions();
    const voteCount = async () =>
      (await db().trajectory.findFirstOrThrow({ where: { externalId: "dv2" }, select: { voteCount: true } })).voteCount;
    const votesBefore = await voteCount();
    const vote = voteFixture("dv2", "j3", { UPSTREAM: "SUCCESSFUL" });
    expect((await runImport({ fileName: "vote.jsonl", format: "interchange" }, asLines([vote]))).ok).toBe(true);
    const afterVote = await versions();
    expect(afterVote.votes).toBe(beforeVote.votes! + 1);
    expect(afterVote.trajectories).toBe(beforeVote.trajectories);
    expect(await voteCount()).toBe(votesBefore + 1);

    // A label (its trajectory's count of labels moves): its own kind only.
    const mid = await versions();
    await runImport({ fileName: "label.jsonl", format: "interchange" }, asLines([labelFixture("dv1", "ann")]));
    const last = await versions();
    expect(last.labels).toBe(mid.labels! + 1);
    expect(last.votes).toBe(mid.votes);
    expect(last.trajectories).toBe(mid.trajectories);
  });
});
