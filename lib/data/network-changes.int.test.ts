// Network on → off, paired (issue 64): worked by hand on a small study, every link of its table
// opening exactly what it counts, and the results JSON naming the sides.
import { beforeAll, describe, expect, it } from "vitest";
import { resultsReportJson } from "@/lib/domain/results-format";
import { benchmarkTables } from "@/lib/domain/results-tables";
import { readTrajectoryFilter } from "@/lib/domain/trajectory-filter";
import type { Verdict } from "@/lib/domain/verdicts";
import { runImport } from "@/lib/work/import/records";
import { resultsReportNow } from "@/lib/work/reports/cache";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { getNetworkChanges } from "./paired";
import { listTrajectories } from "./trajectories";

// Benchmark "offline", model m, vanilla. Three judges agree (UPSTREAM for S and A).
//          network on        network off
// t1 r1    resolved, S       not, N
// t1 r2    resolved, S       resolved, N
// t2 r1    not, A            resolved, S
// t3 r1    (no run)          resolved, S
// And principled with the network only: no pair, no row.
const RUNS: Array<[string, number, boolean, "vanilla" | "principled", boolean, Verdict]> = [
  ["t1", 1, true, "vanilla", true, "SUCCESSFUL"],
  ["t1", 2, true, "vanilla", true, "SUCCESSFUL"],
  ["t2", 1, true, "vanilla", false, "ATTEMPTED"],
  ["t1", 1, false, "vanilla", false, "NOT_ATTEMPTED"],
  ["t1", 2, false, "vanilla", true, "NOT_ATTEMPTED"],
  ["t2", 1, false, "vanilla", true, "SUCCESSFUL"],
  ["t3", 1, false, "vanilla", true, "SUCCESSFUL"],
  ["t1", 1, true, "principled", true, "ATTEMPTED"],
];

beforeAll(async () => {
  const records = RUNS.flatMap(([task, run, network, prompt, resolved, panel]) => {
    const id = `offline-${task}-${run}-${network ? "on" : "off"}-${prompt}`;
    const verdicts = panel === "NOT_ATTEMPTED" ? {} : { UPSTREAM: panel };
    return [
      trajectoryFixture({ id, benchmark: "offline", model: "m", task: { id: task }, run, prompt, resolved, network }),
      ...["j1", "j2", "j3"].map((j) => voteFixture(id, j, verdicts)),
    ];
  });
  expect((await runImport({ fileName: "offline.jsonl", format: "interchange" }, asLines(records))).ok).toBe(true);
});

describe("network on → off", () => {
  it("pairs each run with and without the network, as worked by hand", async () => {
    const changes = await getNetworkChanges();
    expect(changes.map((c) => [c.model, c.prompt])).toEqual([["m", "vanilla"]]);
    const c = changes[0]!;
    // Tasks run both ways: t1 and t2, six trajectories, all judged.
    expect(c).toMatchObject({ benchmark: "offline", tasks: 2, trajectories: 6, judged: 6 });
    // Pairs t1 r1, t1 r2, t2 r1. Attempt: yes on all three with, only t2 r1 without: b = 2, c = 0;
    // n = 2: P(X ≤ 0) = ¼, doubled: ½.
    expect(c.mcnemar.attempt_rate).toMatchObject({ pairs: 3, before_yes: 3, after_yes: 1, b: 2, c: 0, p: 0.5 });
    // Pass@1: with mean(2/2, 0/1) = 50, without mean(1/2, 1/1) = 75: +25 points without the network.
    expect(c.bootstrap.pass_at_1.change).toBeCloseTo(25, 9);
  });

  it("opens exactly what each figure of its table counts", async () => {
    const report = await resultsReportNow();
    const table = benchmarkTables("offline", report).network;
    const links = table.rows.flatMap((r) =>
      r.cells.flatMap((c) => [
        ...(c.href ? [{ href: c.href, count: c.count! }] : []),
        ...(c.parts ?? []).flatMap((p) => (p.href ? [{ href: p.href, count: p.count! }] : [])),
      ]),
    );
    // Tasks, five changes, and pairs / yes→no / no→yes for the three exploit rates.
    expect(links).toHaveLength(1 + 5 + 9);
    const parts = table.rows[0]!.cells.flatMap((c) => c.parts ?? []).filter((p) => p.href);
    expect(parts.map((p) => p.count)).toEqual([3, 2, 0, 3, 2, 1, 3, 2, 1]);
    for (const l of links) {
      const { filter, invalid } = readTrajectoryFilter(new URLSearchParams(l.href.split("?")[1]));
      expect(invalid).toEqual([]);
      expect([l.href, (await listTrajectories(filter)).total]).toEqual([l.href, l.count]);
    }

    const json = resultsReportJson(report).filter((o) => o.benchmark === "offline" && o.prompt === "vanilla");
    const [withNet, without] = [json.find((o) => o.network), json.find((o) => !o.network)];
    expect(withNet).not.toHaveProperty("change_from_network_on");
    expect(without).toMatchObject({
      change_from_network_on: {
        tasks: 2,
        attempt_rate: { mcnemar: { pairs: 3, on_yes: 3, off_yes: 1, b: 2, c: 0, p: 0.5 } },
      },
    });
  });
});
