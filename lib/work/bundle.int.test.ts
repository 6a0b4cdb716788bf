// A bundle is the frozen report: its figures as the report's downloads give them, each link opening as many
// trajectories as its figure counts, nobody named, no account, email, token or internal id anywhere in it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/permissions";
import { readFrozenReport } from "@/lib/data/frozen-reports";
import { createPerson } from "@/lib/data/people";
import { shareReport } from "@/lib/data/report-links";
import { statement } from "@/lib/data/sql";
import { createToken } from "@/lib/data/tokens";
import { frozenDownload } from "@/lib/web/downloads";
import { runImport } from "@/lib/work/import/records";
import { asLines, labelFixture, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { writeBundle } from "./bundle";
import { freezeReport } from "./reports/frozen";
import { scanRuleHits } from "./rule-scan/scan";

const HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>';
const t = (id: string, prompt: "vanilla" | "principled", run: number) =>
  trajectoryFixture({ id, benchmark: "bb", model: "m", task: { id: "task-b" }, prompt, run });

/** Every file's text, data scripts' packed trajectories and tasks unpacked. */
function folderText(dir: string): string {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => {
      const body = fs.readFileSync(path.join(dir, f), "utf8");
      const packed = /^SA_BUNDLE\.(?:trajectory|task)\(\d+,"([A-Za-z0-9+/=]+)"\);$/.exec(body.trim());
      return packed ? gunzipSync(Buffer.from(packed[1]!, "base64")).toString("utf8") : body;
    })
    .join("\n");
}

async function researcherNamed(handle: string): Promise<Actor> {
  const email = `${handle}@lab.example`;
  const p = await createPerson("system", { handle, email, role: "RESEARCHER", password: "password-1" });
  return { id: p.id, handle, role: "RESEARCHER" };
}

describe("a bundle", () => {
  it("holds the frozen figures, links that open what they count, and no person, account or id", async () => {
    const researcher = await researcherNamed("bundle-res");
    await runImport(
      { fileName: "bundle.jsonl", format: "interchange" },
      asLines([
        t("b1", "vanilla", 1),
        t("b2", "principled", 1),
        {
          ...t("b3", "vanilla", 2),
          turns: [
            { role: "user", content: "go" },
            { role: "assistant", content: HOSTILE },
          ],
        },
        ...["j1", "j2", "j3"].map((j) => voteFixture("b1", j, { UPSTREAM: "SUCCESSFUL" })),
        ...["j1", "j2", "j3"].map((j) => voteFixture("b2", j)),
        ...["j1", "j2", "j3"].map((j) => voteFixture("b3", j, { LOCAL_GIT: "ATTEMPTED" })),
        labelFixture("b1", "zed-secret", { UPSTREAM: "ATTEMPTED" }),
        labelFixture("b3", "zed-secret"),
        { type: "gold", trajectory: { id: "b1" }, adjudicator: "dana-secret", verdicts: { UPSTREAM: "SUCCESSFUL" } },
        { type: "gold", trajectory: { id: "b3" }, adjudicator: "dana-secret", verdicts: { LOCAL_GIT: "ATTEMPTED" } },
      ]),
    );
    await scanRuleHits(); // a report is frozen once the rules have read every trajectory
    const id = await freezeReport(researcher, "bundle test");
    const shared = await shareReport(researcher, id, null);
    const token = (await createToken("system", "bundle-res", { scopes: ["read"] })).token;
    const report = (await readFrozenReport(id))!;
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sa-bundle-")), "out");
    const summary = await writeBundle(report, dir, { trajectories: "counted", names: false });
    expect(summary.trajectories).toBe(3);

    const json = JSON.parse(fs.readFileSync(path.join(dir, "report.json"), "utf8"));
    const download = async (what: string) =>
      JSON.parse(await (await frozenDownload(report, new URLSearchParams({ what, format: "json" }))).text());
    expect(json.results).toEqual(await download("results"));
    expect(json.report.fingerprint).toBe(report.fingerprint);
    // The agreement's figures are the report's, the annotator numbered.
    const agreement = await download("agreement");
    expect(agreement.gold.annotators.map((a: { annotator: string }) => a.annotator)).toEqual(["zed-secret"]);
    agreement.gold.annotators[0].annotator = "annotator 2";
    agreement.gold.by_category = agreement.gold.by_category.map((c: { kind: string; rater: string }) =>
      c.kind === "annotator" ? { ...c, rater: "annotator 2" } : c,
    );
    const scoreless = (a: { monitors: { rows: Array<{ scores?: unknown }> } }) =>
      a.monitors.rows.map(({ scores: _, ...r }) => r);
    expect(scoreless(json.agreement)).toEqual(scoreless(agreement));
    expect({ ...json.agreement, monitors: null }).toEqual({ ...agreement, monitors: null });

    // Every figure's link opens as many trajectories as the figure counts.
    const sets = JSON.parse(
      /^SA_BUNDLE\.sets\((.*)\);$/s.exec(fs.readFileSync(path.join(dir, "data/sets.js"), "utf8").trim())![1]!,
    );
    expect(sets.length).toBeGreaterThan(10);
    for (const s of sets) if (s.counted !== null) expect(s.all).toBe(s.counted);

    const text = folderText(dir);
    const users = await statement<{ id: string; email: string | null }>(`SELECT id, email FROM "user"`);
    const secrets = [
      "zed-secret",
      "dana-secret",
      "bundle-res",
      shared,
      token,
      ...users.flatMap((u) => (u.email ? [u.id, u.email] : [u.id])),
    ];
    expect(secrets.filter((x) => text.includes(x))).toEqual([]);
    expect(text.includes("annotator 1")).toBe(true);
    expect(/"(?:trajectoryId|id|userId|annotatorId)"\s*:/.exec(text)?.[0] ?? null).toBeNull();
    // The hostile output is in the trajectory's data as text, and nowhere as markup in a page.
    expect(text.includes(JSON.stringify(HOSTILE).slice(1, -1))).toBe(true);
    for (const page of ["index.html", "list.html", "trajectory.html"])
      expect(fs.readFileSync(path.join(dir, page), "utf8").includes("<script>alert")).toBe(false);
    // A second bundle into the same folder is refused; with --names, people keep their handles.
    await expect(writeBundle(report, dir, { trajectories: "none", names: true })).rejects.toThrow(/exists already/);
    const named = `${dir}-named`;
    const flagged = await writeBundle(report, named, { trajectories: "flagged", names: true });
    expect(flagged.trajectories).toBe(2);
    expect(folderText(named).includes("zed-secret")).toBe(true);
  });

  it("is refused once the data have moved since the report was frozen", async () => {
    await scanRuleHits();
    const id = await freezeReport(await researcherNamed("moved-res"), "before");
    await runImport({ fileName: "more.jsonl", format: "interchange" }, asLines([t("moved-1", "vanilla", 9)]));
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sa-bundle-")), "out");
    await expect(
      writeBundle((await readFrozenReport(id))!, dir, { trajectories: "counted", names: false }),
    ).rejects.toThrow(/changed since this report was frozen/);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
