// A candidate panel compared with the panel in force, from the database, worked out by hand; the same
// figures under another panel (`--panel`) without changing any; adopting and going back.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { currentDb } from "@/lib/db/connect";
import { runImport } from "@/lib/work/import/records";
import { REPORTS } from "@/lib/work/reports/formats";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { answer, trajectoryIds, writeAnswers } from "@/test/answers";
import { runCli } from "@/test/cli";
import { comparePanelsNamed } from "./panel-compare";
import { adoptPanel, savePanel, underPanel } from "./panel-set";
import { panelsJson, parseMember } from "./panels";
import { sideTransaction } from "./sql";

const S = "SUCCESSFUL";
const A = "ATTEMPTED";
const N = "NOT_ATTEMPTED";
// Upstream verdicts of c1..c4 by j1, j2, j3 (imported) and j4 under prompt v1; all resolved but c2.
const VOTES = {
  c1: [S, S, N, S],
  c2: [N, N, N, A],
  c3: [A, N, N, A],
  c4: [S, N, N, S],
} as const;

type Results = Array<{ benchmark: string; attempt_rate: number; success_rate: number }>;
const ours = async () => (JSON.parse(await REPORTS.results("json")) as Results).find((r) => r.benchmark === "pc")!;

describe("comparing panels before adopting one", () => {
  it("loads the study: the panel in force is j1, j2, j3", async () => {
    const r = await runImport(
      { fileName: "compare.jsonl", format: "interchange" },
      asLines([
        ...Object.keys(VOTES).map((id, i) =>
          trajectoryFixture({ id, benchmark: "pc", model: "m", task: { id: `k${i + 1}` }, resolved: id !== "c2" }),
        ),
        ...Object.entries(VOTES).flatMap(([id, vs]) =>
          ["j1", "j2", "j3"].map((j, i) => voteFixture(id, j, { UPSTREAM: vs[i]! })),
        ),
        // Gold on c3 (attempted) and c4 (not attempted).
        { type: "gold", trajectory: { id: "c3" }, adjudicator: "dana", verdicts: { ...NONE, UPSTREAM: A } },
        { type: "gold", trajectory: { id: "c4" }, adjudicator: "dana", verdicts: NONE },
      ] as never[]),
    );
    expect(r.ok, JSON.stringify(r)).toBe(true);
    await answer("j4", 1, Object.fromEntries(Object.entries(VOTES).map(([id, vs]) => [id, vs[3]])));
    // In force: c1 S (2 of 3), c2 N, c3 N (A, N, N), c4 N: attempted 1 of 4.
    expect(await ours()).toMatchObject({ attempt_rate: 25, success_rate: 25 });
  });

  it("saves a candidate without moving any figure", async () => {
    const before = await REPORTS.results("json");
    const members = ["j1", "j2", "j4@v1"].map((m) => parseMember(m) as never);
    const saved = await savePanel(null, members, { adopt: false, name: "with j4" });
    expect(saved).toMatchObject({ name: "with j4", inForce: false, setAt: null });
    // The same judges again, unnamed: the candidate already saved, not a second one.
    expect((await savePanel(null, members, { adopt: false })).id).toBe(saved.id);
    expect(await REPORTS.results("json")).toBe(before);
    const shown = await panelsJson();
    expect(shown).toMatchObject({ in_force: { name: "initial" }, candidates: [{ name: "with j4" }] });
  });

  it("compares the candidate with the panel in force, as worked out by hand", async () => {
    const { comparison: c, against } = await comparePanelsNamed("with j4");
    expect(against.name).toBe("initial");
    // Candidate j1, j2, j4@v1: c1 S, c2 N (N, N, A), c3 A (A, N, A), c4 S (S, N, S).
    const changed = c.changed.map((x) => [x.inForce, x.candidate]);
    expect(changed).toEqual([
      [N, A],
      [N, S],
    ]);
    const row = c.conditions.find((r) => r.benchmark === "pc")!;
    // Attempted 1 → 3 of 4, successful 1 → 2, resolved and successful c1 → c1 and c4.
    expect(row.inForce).toMatchObject({ judged: 4, attempt_rate: 25, success_rate: 25, resolved_exploit_rate: 25 });
    expect(row.candidate).toMatchObject({ judged: 4, attempt_rate: 75, success_rate: 50, resolved_exploit_rate: 50 });
    // McNemar on attempt: no → yes twice, never yes → no: +50 pp, p = 2 · ½² = 0.5.
    expect(row.change.mcnemar.attempt_rate).toMatchObject({ pairs: 4, b: 0, c: 2, change: 50, p: 0.5 });
    expect(row.changed).toBe(2);
    // κ attempt: both yes c1, candidate only c3 and c4, both no c2: p_o = 1/2, p_e = (1·3 + 3·1)/16 = 3/8,
    // κ = (1/8) / (5/8) = 0.2. Success: both yes c1, candidate only c4, both no c2 and c3: p_o = 3/4,
    // p_e = (1·2 + 3·2)/16 = 1/2, κ = 0.5.
    expect(c.agreement.attempt.kappa).toBeCloseTo(0.2, 12);
    expect(c.agreement.success.kappa).toBeCloseTo(0.5, 12);
    // Gold attempted on c3 only. In force (N, N): agree on c4 only, 50 %. Candidate (A, S): agrees on
    // c3, not c4 (it says successful): 50 % too, but on the other trajectory.
    expect(c.gold!.inForce.attempt).toMatchObject({ n: 2, human_only: 1, both_negative: 1, agreement: 50 });
    expect(c.gold!.candidate.attempt).toMatchObject({ n: 2, both_positive: 1, judges_only: 1, agreement: 50 });
    // Twelve answers counted by each; imported votes and these answers carry no tokens.
    expect(c.spend.inForce).toEqual({ answers: 12, priced: 0, tokens: 0, cost: null });
    expect(c.spend.candidate.answers).toBe(12);
  });

  it("computes the figures under the candidate without changing those in force", async () => {
    const before = await REPORTS.results("json");
    const under = await underPanel("with j4", () => REPORTS.results("json"));
    const candidate = (JSON.parse(under) as Results).find((r) => r.benchmark === "pc")!;
    expect(candidate).toMatchObject({ attempt_rate: 75, success_rate: 50 });
    expect(await REPORTS.results("json")).toBe(before);
    expect((await panelsJson()).in_force).toMatchObject({ name: "initial" });
    await expect(underPanel("nobody", () => REPORTS.results("json"))).rejects.toThrow(/no panel named "nobody"/);

    // Adopting it gives exactly those figures; the earlier panel stays selectable, and back.
    await adoptPanel(null, "with j4");
    expect(await REPORTS.results("json")).toBe(under);
    expect(await underPanel("initial", () => REPORTS.results("json"))).toBe(before);
    await adoptPanel(null, "initial");
    expect(await REPORTS.results("json")).toBe(before);
    expect((await panelsJson()).earlier).toMatchObject([{ name: "with j4" }]);
    await expect(adoptPanel(null, "nobody")).rejects.toThrow(/no panel named/);
  });

  it.runIf(process.env.DATABASE_URL)(
    "npm run cli -- panel save, compare and adopt; results --panel",
    async () => {
      const target = currentDb().target;
      if (target.kind !== "postgres") throw new Error("PostgreSQL only");
      const cli = (...args: string[]) => runCli(target.url, ...args);
      expect(cli("panel", "save", "j2", "j3", "j4@v1", "--name", "cli").status).toBe(0);
      const csv = cli("panel", "compare", "cli", "--format", "csv");
      expect(csv.status, csv.stderr).toBe(0);
      const [header, row] = csv.stdout.trim().split("\n");
      const cells = Object.fromEntries(header!.split(",").map((k, i) => [k, row!.split(",")[i]]));
      // j2, j3, j4@v1: c1 S (S, N, S), c2 N, c3 N (N, N, A), c4 N (N, N, S): 25 % as in force.
      expect(cells).toMatchObject({ benchmark: "pc", with_attempt_rate: "25", panel_attempt_rate: "25", changed: "0" });
      const json = JSON.parse(cli("panel", "compare", "with j4", "--with", "cli", "--format", "json").stdout);
      expect(json).toMatchObject({ panel: { name: "with j4" }, with: { name: "cli" } });
      expect(json.changed.map((x: { task: string }) => x.task)).toEqual(["k3", "k4"]);
      const results = JSON.parse(cli("results", "--format", "json", "--panel", "with j4").stdout) as Results;
      expect(results.find((r) => r.benchmark === "pc")).toMatchObject({ attempt_rate: 75 });
      expect(cli("results", "--panel", "nobody").stderr).toMatch(/--panel: no panel named "nobody"/);
      expect(cli("panel", "adopt", "cli").status).toBe(0);
      expect((await panelsJson()).in_force).toMatchObject({ name: "cli" });
      // Six commands, each its own process: more than the default minute on a loaded machine.
    },
    180_000,
  );

  it.runIf(process.env.DATABASE_URL)("an adoption waits for a vote being written, then counts it", async () => {
    const writer = (await sideTransaction())!;
    try {
      const ids = await trajectoryIds(["c2"]);
      // As an import does: the trajectory's row written, then a vote (j1 now says c2 successful).
      const ctx = await writeAnswers(writer.sql, "j1", 0, ids, { c2: S });
      await writer.sql.query(`UPDATE trajectory SET "updatedAt" = "updatedAt" WHERE id = $1`, [ids[0]!.id]);
      let adopted = false;
      const adopting = adoptPanel(null, "with j4").then(() => (adopted = true));
      await new Promise((r) => setTimeout(r, 500));
      expect(adopted).toBe(false);
      await ctx.refreshTouched();
      await writer.commit();
      await adopting;
    } finally {
      await writer.release();
    }
    // Under j1, j2, j4@v1: c2 is S, N, A: no majority, attempted; j1's new vote counts.
    const c2 = await db().trajectory.findFirst({ where: { externalId: "c2" }, select: { panelVerdict: true } });
    expect(c2).toEqual({ panelVerdict: A });
    const vote = await db().judgeVote.findFirst({
      where: { judge: { name: "j1" }, trajectory: { externalId: "c2" }, promptVersion: 0 },
      select: { overall: true, counted: true },
    });
    expect(vote).toEqual({ overall: S, counted: true });
  });
});

const NONE = { UPSTREAM: N, LOCAL_GIT: N, MEMORY: N, OTHER: N };
