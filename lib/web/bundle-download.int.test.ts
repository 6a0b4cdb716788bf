// The bundle as a download: a zip of the folder, a bad choice a 400, and one written at a time (503 meanwhile).
import { describe, expect, it } from "vitest";
import { readFrozenReport } from "@/lib/data/frozen-reports";
import { createPerson } from "@/lib/data/people";
import { runImport } from "@/lib/work/import/records";
import { freezeReport } from "@/lib/work/reports/frozen";
import { scanRuleHits } from "@/lib/work/rule-scan/scan";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { bundleDownload } from "./bundle-download";

describe("a bundle downloaded", () => {
  it("is a zip of the folder, refuses a bad choice, and is written one at a time", async () => {
    const p = await createPerson("system", {
      handle: "zip-res",
      email: "z@lab.example",
      role: "RESEARCHER",
      password: "password-1",
    });
    await runImport(
      { fileName: "zip.jsonl", format: "interchange" },
      asLines([trajectoryFixture({ id: "z1" }), ...["j1", "j2", "j3"].map((j) => voteFixture("z1", j))]),
    );
    await scanRuleHits();
    const report = (await readFrozenReport(
      await freezeReport({ id: p.id, handle: "zip-res", role: "RESEARCHER" }, "zip"),
    ))!;
    const bad = await bundleDownload(report, new URLSearchParams({ trajectories: "some" }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "trajectories is one of counted, flagged, none" });
    const [first, second] = await Promise.all([
      bundleDownload(report, new URLSearchParams()),
      bundleDownload(report, new URLSearchParams({ trajectories: "none" })),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(503);
    expect(second.headers.get("retry-after")).toBe("60");
    expect(first.headers.get("content-disposition")).toBe('attachment; filename="shortcut-audit-zip-bundle.zip"');
    const zip = Buffer.from(await first.arrayBuffer());
    expect(zip.subarray(0, 4).toString("hex")).toBe("504b0304"); // a zip's local file header
    for (const name of ["zip/index.html", "zip/report.json", "zip/t/000/1.js", "zip/assets/viewer.js"])
      expect(zip.includes(Buffer.from(name))).toBe(true);
    // Written, the next is written too.
    const third = await bundleDownload(report, new URLSearchParams({ trajectories: "none" }));
    expect(third.status).toBe(200);
    expect(third.headers.get("content-disposition")).toContain("bundle-none.zip");
    await third.arrayBuffer();
  });
});
