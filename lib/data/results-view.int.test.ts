// The results page's figures and downloads on a hand-worked benchmark: every link of every table
// and chart opens exactly as many trajectories as it says; the paired change and McNemar's counts
// match the hand-worked pairs; the downloads carry them, and the LaTeX compiles.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { FigureTable } from "@/lib/domain/figure-table";
import { chartBars } from "@/lib/domain/results-charts";
import { benchmarkTables, TABLE_NAMES } from "@/lib/domain/results-tables";
import { readTrajectoryFilter } from "@/lib/domain/trajectory-filter";
import type { Verdict } from "@/lib/domain/verdicts";
import { reportResponse } from "@/lib/web/downloads";
import { runImport } from "@/lib/work/import/records";
import { REPORTS } from "@/lib/work/reports/formats";
import { scanRuleHits } from "@/lib/work/rule-scan/scan";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { getPairedChanges } from "./paired";
import { getResults } from "./results";
import { getRuleHits } from "./rule-hits";
import { listTrajectories } from "./trajectories";

// Benchmark "walk", model m, network on. Three judges agree on each verdict (UPSTREAM for S and A);
// j3's answer on vanilla t2 r2 cannot be read. Resolved: true, false or unknown (null).
//            vanilla            principled
// t1 r1      resolved, S        resolved, N
// t1 r2      not, A             resolved, N
// t2 r1      resolved, N        not, S
// t2 r2      unknown, N (j3 ?)  not, unjudged
// t3 r1      not, unjudged      (no run)
const RUNS: Array<[string, number, "vanilla" | "principled", boolean | null, Verdict | null]> = [
  ["t1", 1, "vanilla", true, "SUCCESSFUL"],
  ["t1", 2, "vanilla", false, "ATTEMPTED"],
  ["t2", 1, "vanilla", true, "NOT_ATTEMPTED"],
  ["t2", 2, "vanilla", null, "NOT_ATTEMPTED"],
  ["t3", 1, "vanilla", false, null],
  ["t1", 1, "principled", true, "NOT_ATTEMPTED"],
  ["t1", 2, "principled", true, "NOT_ATTEMPTED"],
  ["t2", 1, "principled", false, "SUCCESSFUL"],
  ["t2", 2, "principled", false, null],
];

beforeAll(async () => {
  const records = RUNS.flatMap(([task, run, prompt, resolved, panel]) => {
    const id = `walk-${task}-${run}-${prompt}`;
    const votes =
      panel === null
        ? []
        : ["j1", "j2", "j3"].map((j) =>
            id === "walk-t2-2-vanilla" && j === "j3"
              ? { type: "judge_vote", trajectory: { id }, judge: j, raw: "no verdict here" }
              : voteFixture(id, j, panel === "NOT_ATTEMPTED" ? {} : { UPSTREAM: panel }),
          );
    return [
      trajectoryFixture({
        id,
        benchmark: "walk",
        model: "m",
        task: { id: task },
        run,
        prompt,
        resolved,
        network: true,
      }),
      ...votes,
    ];
  });
  const outcome = await runImport({ fileName: "walk.jsonl", format: "interchange" }, asLines(records));
  expect(outcome.ok).toBe(true);
});

/** Every link of a table: its href and the count it claims. */
function links(table: FigureTable): Array<{ href: string; count: number; where: string }> {
  return table.rows.flatMap((r) =>
    r.cells.flatMap((c, i) => [
      ...(c.href ? [{ href: c.href, count: c.count!, where: `${table.title} ${r.key} ${table.columns[i]!.key}` }] : []),
      ...(c.parts ?? []).flatMap((p) => (p.href ? [{ href: p.href, count: p.count!, where: `${p.text}` }] : [])),
    ]),
  );
}

async function listed(href: string): Promise<number> {
  const { filter, invalid } = readTrajectoryFilter(new URLSearchParams(href.split("?")[1] ?? ""));
  expect(invalid).toEqual([]);
  return (await listTrajectories(filter)).total;
}

describe("the results page of a benchmark", () => {
  it("pairs vanilla and principled as worked by hand", async () => {
    const [c] = (await getPairedChanges()).filter((x) => x.benchmark === "walk");
    // Tasks under both prompts: t1 and t2, with 8 trajectories, 7 of them judged.
    expect(c).toMatchObject({ tasks: 2, trajectories: 8, judged: 7 });
    // Pairs judged on both sides: t1 r1, t1 r2, t2 r1. Attempt: yes→no t1 r1, t1 r2; no→yes t2 r1.
    // p: n = 3, P(X ≤ 1) = 4/8, doubled and capped: 1.
    expect(c!.mcnemar.attempt_rate).toMatchObject({ pairs: 3, b: 2, c: 1, p: 1 });
    // Success: t1 r1 yes→no, t2 r1 no→yes. Resolved: t1 r1 (successful and resolved) yes→no only.
    expect(c!.mcnemar.success_rate).toMatchObject({ b: 1, c: 1 });
    expect(c!.mcnemar.resolved_exploit_rate).toMatchObject({ b: 1, c: 0, p: 1 });
    // Attempt %: vanilla 2 of 4 judged on t1, t2; principled 1 of 3: 33.3 − 50 = −16.7 points.
    expect(c!.bootstrap.attempt_rate.change).toBeCloseTo(100 / 3 - 50, 9);
    // Pass@1: vanilla mean(1/2, 1/1) = 75 (t2 r2 unknown); principled mean(2/2, 0/2) = 50.
    expect(c!.bootstrap.pass_at_1.change).toBeCloseTo(-25, 9);
  });

  it("every link of every table opens exactly the trajectories it counts", async () => {
    await scanRuleHits(); // the rule hits' table reads the kept hits: all of them, here
    const page = benchmarkTables("walk", {
      conditions: await getResults(),
      changes: await getPairedChanges(),
      evidence: [],
      rules: await getRuleHits(),
    });
    const tables = [page.results, page.changes, page.rules, page.categories, page.judges];
    const all = tables.flatMap(links);
    // Result table: 2 rows × 9 figures (3 counts, 5 rates, resolved without exploit); changes: 1 row ×
    // (tasks + 5 changes + 3 × 3 pair counts); rule hits: 2 × (any rule + the 5 categories in force);
    // categories: 2 × 4 × (attempts, successes); judges: 2 × (3 judges + panel) × 4.
    expect(all).toHaveLength(18 + 15 + 12 + 16 + 32);
    for (const l of all) expect([l.where, await listed(l.href)]).toEqual([l.where, l.count]);
    // The discordant counts by hand, through their links.
    const parts = tables[1]!.rows[0]!.cells.flatMap((c) => c.parts ?? []).filter((p) => p.href);
    expect(parts.map((p) => p.count)).toEqual([3, 2, 1, 3, 1, 1, 3, 1, 0]);
    // j3's unreadable answer: one on vanilla, in its row and the panel's.
    const judges = tables[4]!.rows.filter((r) => r.key.includes("vanilla"));
    expect(judges.map((r) => r.cells.at(-1)!.count)).toEqual([0, 0, 1, 1]);
  });

  it("every bar of the charts opens the trajectories of its figure", async () => {
    const own = (await getResults()).filter((r) => r.row.benchmark === "walk");
    const bars = chartBars("walk", own);
    const [exploit] = bars.exploit;
    // Vanilla: attempts t1 r1, t1 r2; successes t1 r1. Principled: attempts and successes t2 r1.
    expect(await listed(exploit!.hrefs.vanilla_attempt!)).toBe(2);
    expect(await listed(exploit!.hrefs.vanilla_success!)).toBe(1);
    expect(await listed(exploit!.hrefs.principled_attempt!)).toBe(1);
    // Pass@1 as the table's: vanilla mean(1/2, 1/1, 0/1) = 50; without the exploit-aided t1 r1,
    // mean(0/2, 1/1, 0/1) = 33.3. Its bars open the resolved runs (2) and those not judged successful (1).
    const vanilla = bars.resolve.find((b) => b.group.endsWith("vanilla"))!;
    expect(vanilla.resolved).toBeCloseTo(50, 9);
    expect(vanilla.without_exploits).toBeCloseTo(100 / 3, 9);
    expect(vanilla.resolved).toBeCloseTo(own.find((r) => r.row.prompt === "vanilla")!.row.pass_at_1!, 9);
    expect(await listed(vanilla.hrefs.resolved!)).toBe(2);
    expect(await listed(vanilla.hrefs.without_exploits!)).toBe(1);
  });
});

describe("the result downloads", () => {
  it("JSON keeps docs/formats.md's keys first and adds the breakdowns and the paired change", async () => {
    const json = JSON.parse(await REPORTS.results("json")) as Array<Record<string, unknown>>;
    const principled = json.find((o) => o.benchmark === "walk" && o.prompt === "principled")!;
    const contract = "benchmark model network prompt trajectories tasks judged pass_at_1 pass_at_3 attempt_rate";
    expect(Object.keys(principled).slice(0, 12)).toEqual(`${contract} success_rate resolved_exploit_rate`.split(" "));
    const change = principled.change_from_vanilla as Record<string, Record<string, unknown>>;
    expect(change.tasks).toBe(2);
    expect(change.attempt_rate!.mcnemar).toMatchObject({ pairs: 3, b: 2, c: 1 });
    expect(change.pass_at_1!.change).toBeCloseTo(-25, 9);
    expect(change.pass_at_1!.resamples).toBe(2000);
    const vanilla = json.find((o) => o.benchmark === "walk" && o.prompt === "vanilla")!;
    expect(vanilla).not.toHaveProperty("change_from_vanilla");
    expect(vanilla).toMatchObject({ unparseable_votes: 1, unparseable_trajectories: 1 });
    expect((vanilla.judges as Array<{ judge: string; unparseable: number }>).map((j) => j.unparseable)).toEqual([
      0, 0, 1,
    ]);
  });

  it("CSV gives one table a file, and refuses all; the unparseable table counts by hand", async () => {
    const csv = (await REPORTS.results("csv", { table: "unparseable" })).trim().split("\n");
    expect(csv[0]).toBe("benchmark,model,network,prompt,votes,unparseable_votes,unparseable_trajectories");
    // Vanilla: 4 judged × 3 judges = 12 votes, one unreadable.
    expect(csv).toContain("walk,m,true,vanilla,12,1,1");
    const changes = (await REPORTS.results("csv", { table: "changes" })).trim().split("\n");
    const row = changes.find((l) => l.startsWith("walk,"))!.split(",");
    const header = changes[0]!.split(",");
    expect(row[header.indexOf("attempt_rate_b")]).toBe("2");
    expect(row[header.indexOf("attempt_rate_c")]).toBe("1");
    expect(Number(row[header.indexOf("pass_at_1_change")])).toBeCloseTo(-25, 9);
    expect((await reportResponse("results", "csv", {}, "all")).status).toBe(400);
    expect((await reportResponse("results", "latex", {}, "toString")).status).toBe(400);
    expect((await reportResponse("results", "latex", {}, "all")).status).toBe(200);
  });

  it("LaTeX of every table compiles as booktabs tables", async () => {
    const tex = await REPORTS.results("latex", { table: "all" });
    expect(tex.match(/\\begin\{tabular\}/g)).toHaveLength(TABLE_NAMES.length);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "results-tex-"));
    fs.writeFileSync(
      path.join(dir, "t.tex"),
      `\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{amssymb}\n\\usepackage[utf8]{inputenc}\n` +
        `\\usepackage[landscape,margin=1cm]{geometry}\n\\begin{document}\n\\tiny\n${tex}\n\\end{document}\n`,
    );
    const r = spawnSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "t.tex"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.error, "pdflatex: .ci/run installs texlive-latex-base and texlive-latex-recommended").toBeUndefined();
    expect(r.status, r.stdout.slice(-2000)).toBe(0);
    expect(fs.existsSync(path.join(dir, "t.pdf"))).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
