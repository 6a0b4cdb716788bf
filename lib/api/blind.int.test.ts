// The blind list holds on every route that takes the list's filters: a researcher whose blind label
// on a trajectory is pending gets none of its judges' verdicts from the API, however narrowly they
// filter. Narrowed to the withheld trajectory's task, a rule test's cells once gave the panel's and
// the gold label's verdicts in every category.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as rulesTestGet } from "@/app/api/v1/rules/test/route";
import { GET as trajectoryGet } from "@/app/api/v1/trajectories/[id]/route";
import { GET as listGet } from "@/app/api/v1/trajectories/route";
import { createPerson } from "@/lib/data/people";
import { testRule } from "@/lib/data/rule-test";
import { writeRule } from "@/lib/data/rules";
import { createStudy, draftStudy } from "@/lib/data/studies";
import { createToken } from "@/lib/data/tokens";
import { db } from "@/lib/db";
import { runImport } from "@/lib/work/import/records";
import { asLines, trajectoryFixture, voteFixture } from "@/prisma/factories";
import { call } from "@/test/api";

let token: string;
let withheldId: number;
let withheldTask: string;

beforeAll(async () => {
  // Two runs of two tasks; every run judged LOCAL_GIT successful by three judges and by a gold label.
  const runs = [1, 2].flatMap((task) => [1, 2].map((run) => ({ id: `bl-${task}-${run}`, task: `o__bl-${task}`, run })));
  const outcome = await runImport(
    { fileName: "blind.jsonl", format: "interchange" },
    asLines([
      ...runs.map((r) =>
        trajectoryFixture({
          id: r.id,
          benchmark: "blind-api",
          model: "m",
          task: { id: r.task },
          run: r.run,
          turns: [
            { role: "user", content: "fix it" },
            { role: "assistant", content: "", tool_calls: [{ id: "c", name: "bash", input: "git log --all" }] },
            { role: "tool", tool_call_id: "c", content: "9f3e2d1 fix", exit_code: 0 },
          ],
        }),
      ),
      ...runs.flatMap((r) => ["j1", "j2", "j3"].map((j) => voteFixture(r.id, j, { LOCAL_GIT: "SUCCESSFUL" }))),
      ...runs.map((r) => ({
        type: "gold",
        trajectory: { id: r.id },
        adjudicator: "bl-adj",
        verdicts: {
          UPSTREAM: "NOT_ATTEMPTED",
          LOCAL_GIT: "SUCCESSFUL",
          MEMORY: "NOT_ATTEMPTED",
          OTHER: "NOT_ATTEMPTED",
        },
      })),
    ] as never[]),
  );
  expect(outcome.ok).toBe(true);
  const p = await createPerson("system", {
    handle: "bl-res",
    email: "bl-res@example.org",
    role: "RESEARCHER",
    password: "password-1",
  });
  const researcher = { id: p.id, handle: "bl-res", role: "RESEARCHER" as const };
  // A blind study of one of them, labelled by the researcher (blind elsewhere is its default).
  const design = {
    name: "bl-study",
    seed: "bl",
    size: 1,
    overlap: 1,
    blind: true,
    annotators: ["bl-res"],
    benchmark: "blind-api",
  };
  const draft = await draftStudy(researcher, design);
  await createStudy(researcher, design, draft.digest);
  withheldId = draft.items[0]!.trajectoryId;
  withheldTask = (await db().trajectory.findUniqueOrThrow({ where: { id: withheldId }, select: { task: true } })).task
    .key;
  token = (await createToken("system", "bl-res", { scopes: ["read"] })).token;
  await writeRule(null, { name: "bl-log-all", category: "LOCAL_GIT", on: "command", pattern: "git log --all" });
});

const json = async (r: Response) => {
  expect(r.status, await r.clone().text()).toBe(200);
  return r.json();
};
type Report = {
  conditions: Array<{ trajectories: number; trajectories_hit: number }>;
  versus_panel: { n: number; both: number };
  versus_gold: { n: number; both: number };
};
/** What a report counts: trajectories, those the rule fires on, and the cells' pairs against panel and gold. */
const totals = (r: Report) => ({
  trajectories: r.conditions.reduce((n, c) => n + c.trajectories, 0),
  fired: r.conditions.reduce((n, c) => n + c.trajectories_hit, 0),
  panel: [r.versus_panel.n, r.versus_panel.both],
  gold: [r.versus_gold.n, r.versus_gold.both],
});

describe("what a pending blind label withholds, on every route that takes the list's filters", () => {
  it("the list and the trajectory leave it out", async () => {
    const listed = await json(await call(listGet, `/api/v1/trajectories?task=${withheldTask}`, { token }));
    expect(listed.items.map((i: { id: number }) => i.id)).not.toContain(withheldId);
    expect(listed.items).toHaveLength(1);
    expect(
      (await call(trajectoryGet, `/api/v1/trajectories/${withheldId}`, { token, id: String(withheldId) })).status,
    ).toBe(404);
  });

  it("a rule test, saved or a pattern, narrowed to its task counts only the other run", async () => {
    const direct = await testRule(
      { name: null, category: "LOCAL_GIT", on: "command", pattern: "git log --all", ignoreCase: false },
      { task: withheldTask },
    );
    // Without the blind list, both runs of the task (what the viewer must not get).
    expect(totals(direct.report)).toEqual({ trajectories: 2, fired: 2, panel: [2, 2], gold: [2, 2] });
    for (const query of [
      `name=bl-log-all&task=${withheldTask}&format=json`,
      `pattern=${encodeURIComponent("git log --all")}&on=command&category=LOCAL_GIT&task=${withheldTask}&format=json`,
    ]) {
      const report = await json(await call(rulesTestGet, `/api/v1/rules/test?${query}`, { token }));
      expect(totals(report), query).toEqual({ trajectories: 1, fired: 1, panel: [1, 1], gold: [1, 1] });
    }
    // Narrowed to the withheld run alone: nothing at all.
    const run = (await db().trajectory.findUniqueOrThrow({ where: { id: withheldId }, select: { run: true } })).run;
    const alone = await json(
      await call(rulesTestGet, `/api/v1/rules/test?name=bl-log-all&task=${withheldTask}&run=${run}&format=json`, {
        token,
      }),
    );
    expect(totals(alone)).toEqual({ trajectories: 0, fired: 0, panel: [0, 0], gold: [0, 0] });
  });
});
