// Saving a rule answers at once: the save writes its version and nothing of the study; the scan's job
// on the queue carries the hits of the version it follows (same pattern, another category) or reads
// the study, and the Rules page's coverage says how far it has come meanwhile.
import { afterAll, describe, expect, it } from "vitest";
import { ruleHitsCoverage } from "@/lib/data/rule-matches";
import { writeRule } from "@/lib/data/rules";
import { transaction } from "@/lib/data/sql";
import { runImport } from "@/lib/work/import/records";
import { appQueue } from "@/lib/work/queue";
import { asLines, trajectoryFixture } from "@/prisma/factories";
import { requestRuleScan } from "./jobs";
import { scanRuleHits } from "./scan";

const trajectory = (n: number, command: string) =>
  trajectoryFixture({
    id: `j${n}`,
    benchmark: "jobs",
    task: { id: `task-${n}` },
    turns: [
      { role: "user", content: "Fix the bug" },
      { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "bash", input: command }] },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "assistant", content: "done" },
    ],
  });

const hitsOf = (name: string) =>
  transaction((sql) =>
    sql.query<{ id: number; trajectoryId: number; step: number }>(
      `SELECT m."ruleId" AS id, m."trajectoryId", m.step FROM rule_match m JOIN rule r ON r.id = m."ruleId"
        WHERE r.name = $1 ORDER BY 2, 3`,
      [name],
    ),
  );

async function caughtUp(ms: number): Promise<number> {
  const until = Date.now() + ms;
  for (;;) {
    const { unscanned } = await ruleHitsCoverage();
    if (!unscanned || Date.now() > until) return unscanned;
    await new Promise((r) => setTimeout(r, 200));
  }
}

afterAll(async () => {
  await (await appQueue()).stop({ graceful: false, wait: true });
});

describe("a rule saved", () => {
  it("answers before any hit is written, and the scan's job keeps them", async () => {
    const imported = await runImport(
      { fileName: "jobs.jsonl", format: "interchange" },
      asLines([1, 2, 3, 4].map((n) => trajectory(n, n % 2 ? "wget https://x.example/fix.patch" : "ls")) as never[]),
    );
    expect(imported.ok).toBe(true);
    await writeRule(null, { name: "jobs-wget", category: "UPSTREAM", on: "command", pattern: String.raw`\ywget\y` });
    await scanRuleHits();
    const first = await hitsOf("jobs-wget");
    // Trajectories 1 and 3, at step 1: worked out from the fixtures above.
    expect(first.map((h) => h.step)).toEqual([1, 1]);

    // Another category, the same pattern: the save writes the version, and no hit.
    await writeRule(null, { name: "jobs-wget", category: "OTHER", on: "command", pattern: String.raw`\ywget\y` });
    const saved = await hitsOf("jobs-wget");
    expect(saved.every((h) => h.id === first[0]!.id)).toBe(true);
    const behind = await ruleHitsCoverage();
    expect(behind.unscanned).toBe(behind.trajectories);

    await requestRuleScan();
    expect(await caughtUp(30_000)).toBe(0);
    const carried = await hitsOf("jobs-wget");
    expect(carried.map((h) => [h.trajectoryId, h.step])).toEqual(first.map((h) => [h.trajectoryId, h.step]));
    expect(new Set(carried.map((h) => h.id)).size).toBe(1);
    expect(carried[0]!.id).not.toBe(first[0]!.id);
  });
});
