// Frozen reports: the figures stored as they were, whatever the data do next; the data's
// fingerprint; read-only links by token (only its hash stored), revoked and expired alike.
import { describe, expect, it } from "vitest";
import { GET as sharedDownload } from "@/app/r/[token]/download/route";
import { type Actor, PermissionDenied } from "@/lib/auth/permissions";
import { dataFingerprint, getFrozenReport, hasMoved, listFrozenReports } from "@/lib/data/frozen-reports";
import { createPerson } from "@/lib/data/people";
import { reportByToken, revokeLink, shareReport } from "@/lib/data/report-links";
import { statement } from "@/lib/data/sql";
import { db } from "@/lib/db";
import { frozenDownload } from "@/lib/web/downloads";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { REPORTS } from "./formats";
import { freezeReport } from "./frozen";

const person = async (handle: string, role: Actor["role"]): Promise<Actor> => {
  const p = await createPerson("system", { handle, email: `${handle}@example.org`, role, password: "password-1" });
  return { id: p.id, handle, role };
};
const load = (records: unknown[]) =>
  runImport({ fileName: "frozen.jsonl", format: "interchange" }, asLines(records as never[]));
const t = (id: string, prompt: "vanilla" | "principled") =>
  trajectoryFixture({ id, benchmark: "fr", model: "m", task: { id: "task-1" }, prompt });

describe("frozen reports", () => {
  it("keep their figures when the data change, and say the live figures moved", async () => {
    const researcher = await person("fr-res", "RESEARCHER");
    const reviewer = await person("fr-rev", "REVIEWER");
    await load([
      t("f1", "vanilla"),
      t("f2", "principled"),
      ...["j1", "j2", "j3"].map((j) => voteFixture("f1", j, { UPSTREAM: "SUCCESSFUL" })),
      ...["j1", "j2", "j3"].map((j) => voteFixture("f2", j)),
      { type: "task", instance_id: "task-1", patch: "diff --git a/x b/x\n", created_at: "2024-01-01 00:00:00" },
    ]);
    expect(await dataFingerprint()).toBe(await dataFingerprint());
    const liveJson = await REPORTS.results("json");
    const liveEvidence = await REPORTS.results("csv", { table: "evidence" });
    // Both runs have the task's record: each condition's row counts one checked.
    expect(liveEvidence.split("\n").filter((l) => l.startsWith("fr,"))).toHaveLength(2);
    const liveAgreement = await REPORTS.agreement("csv");
    await expect(freezeReport(reviewer, "r")).rejects.toBeInstanceOf(PermissionDenied);
    await expect(freezeReport(researcher, "  ")).rejects.toThrow(/give the report a name/);
    const id = await freezeReport(researcher, "before the change");
    const frozen = (await getFrozenReport(reviewer, id))!;
    expect(frozen).toMatchObject({ name: "before the change", appVersion: "0.1.0", createdBy: "fr-res" });
    expect(frozen.fingerprint).toBe(await dataFingerprint());
    expect(frozen.judges).toEqual([
      { judge: "j1", votes: 2, promptVersions: [] },
      { judge: "j2", votes: 2, promptVersions: [] },
      { judge: "j3", votes: 2, promptVersions: [] },
    ]);
    // The report names the panel its figures followed: the three judges whose votes were imported.
    expect(frozen.figures.panel).toEqual({
      name: "initial",
      judges: ["j1", "j2", "j3"].map((judge) => ({ judge, promptVersion: null })),
    });
    expect(await hasMoved(frozen)).toBe(false);

    // The data change: j3 changes its mind on f2 (a vote replaced), and a trajectory arrives.
    await load([voteFixture("f2", "j3", { MEMORY: "ATTEMPTED" }), t("f3", "vanilla")]);
    const after = (await getFrozenReport(reviewer, id))!;
    expect(after.figures).toEqual(frozen.figures);
    expect(await hasMoved(after)).toBe(true);
    expect(await REPORTS.results("json")).not.toBe(liveJson);
    // Its downloads are the figures as they were: byte for byte what the live ones were then.
    const download = await frozenDownload(after, new URLSearchParams("what=results&format=json"));
    expect(await download.text()).toBe(liveJson);
    // A report frozen before network on → off stored McNemar's counts named for the prompts: the same bytes.
    await statement(
      `UPDATE frozen_report SET figures = replace(replace(figures::text, '"before_yes"', '"vanilla_yes"'),
         '"after_yes"', '"principled_yes"')::json WHERE id = $1`,
      [id],
    );
    const renamed = (await getFrozenReport(reviewer, id))!;
    expect(JSON.stringify(renamed.figures)).toContain('"vanilla_yes"');
    const renamedDownload = await frozenDownload(renamed, new URLSearchParams("what=results&format=json"));
    expect(await renamedDownload.text()).toBe(liveJson);
    const evidence = await frozenDownload(after, new URLSearchParams("what=results&format=csv&table=evidence"));
    expect(await evidence.text()).toBe(liveEvidence);
    // A report frozen before evidence was kept (its figures without the key) reads as one without evidence.
    const { evidence: _kept, ...withoutEvidence } = after.figures;
    expect(_kept).toHaveLength(2);
    await db().frozenReport.update({ where: { id }, data: { figures: JSON.parse(JSON.stringify(withoutEvidence)) } });
    const older = (await getFrozenReport(reviewer, id))!;
    expect(older.results.evidence).toEqual([]);
    const none = await (await frozenDownload(older, new URLSearchParams("what=results&format=json"))).json();
    expect(none.map((c: { evidence: unknown }) => c.evidence)).toEqual([null, null]);
    const agreement = await frozenDownload(after, new URLSearchParams("what=agreement&format=csv"));
    expect(await agreement.text()).toBe(liveAgreement);
    expect((await frozenDownload(after, new URLSearchParams("what=people"))).status).toBe(400);
    expect((await frozenDownload(after, new URLSearchParams("what=results&format=csv&table=all"))).status).toBe(400);

    // A second report has the new fingerprint; a reviewer sees both, but no link.
    const second = await freezeReport(researcher, "after");
    expect((await getFrozenReport(reviewer, second))!.fingerprint).not.toBe(frozen.fingerprint);
    await shareReport(researcher, id, null);
    const seen = await listFrozenReports(reviewer);
    expect(seen.map((r) => r.name)).toEqual(["after", "before the change"]);
    expect(seen.every((r) => r.links.length === 0)).toBe(true);
    expect((await listFrozenReports(researcher)).find((r) => r.id === id)!.links).toHaveLength(1);
  });

  it("share by a token kept only as a hash; revoked, expired or unknown, a link opens nothing", async () => {
    const researcher = await person("fr-res2", "RESEARCHER");
    const annotator = await person("fr-ann", "ANNOTATOR");
    const id = await freezeReport(researcher, "shared");
    await expect(shareReport(annotator, id, null)).rejects.toBeInstanceOf(PermissionDenied);
    await expect(shareReport(researcher, id, 0)).rejects.toThrow(/whole number of days/);
    await expect(shareReport(researcher, 999_999, null)).rejects.toThrow(/no such report/);
    await expect(getFrozenReport(annotator, id)).rejects.toBeInstanceOf(PermissionDenied);

    const token = await shareReport(researcher, id, 30);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db().reportLink.findMany({ where: { reportId: id } });
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.hint).toBe(token.slice(0, 6));
    expect((await reportByToken(token))?.name).toBe("shared");
    for (const bad of ["", "x", `${token}x`, token.replace(/.$/, token.endsWith("A") ? "B" : "A"), "../../api/results"])
      expect(await reportByToken(bad)).toBeNull();

    const response = (tok: string, q = "what=results&format=json") =>
      sharedDownload(new Request(`http://app/r/${tok}/download?${q}`), { params: Promise.resolve({ token: tok }) });
    expect((await response(token)).status).toBe(200);

    // Expired: the day it expires, it opens nothing.
    await db().reportLink.updateMany({ where: { reportId: id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await reportByToken(token)).toBeNull();
    expect((await response(token)).status).toBe(404);

    // Revoked: likewise, and revoking again says so.
    const other = await shareReport(researcher, id, null);
    expect((await response(other)).status).toBe(200);
    const link = (await db().reportLink.findFirst({ where: { hint: other.slice(0, 6), reportId: id } }))!;
    expect(await revokeLink(researcher, link.id)).toMatch(/revoked/);
    await expect(revokeLink(researcher, link.id)).rejects.toThrow(/revoked already/);
    expect(await reportByToken(other)).toBeNull();
    expect((await response(other)).status).toBe(404);
  });
});
