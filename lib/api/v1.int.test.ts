// The API's import, list and trajectory routes, each status worked out by hand: a file pushed as a
// request's body lands (or is refused whole, its line named), the list pages by cursor with the
// list's filters, one trajectory comes back as the export writes it with its votes.
import { describe, expect, it } from "vitest";
import { GET as agreementGet } from "@/app/api/v1/agreement/route";
import { GET as evidenceGet } from "@/app/api/v1/evidence/route";
import { POST as importPost } from "@/app/api/v1/imports/route";
import { GET as resultsGet } from "@/app/api/v1/results/route";
import { GET as rulesTestGet } from "@/app/api/v1/rules/test/route";
import { GET as trajectoryGet } from "@/app/api/v1/trajectories/[id]/route";
import { GET as listGet } from "@/app/api/v1/trajectories/route";
import { createPerson } from "@/lib/data/people";
import { createToken } from "@/lib/data/tokens";
import { db } from "@/lib/db";
import { workBudget } from "@/lib/server/memory-budget";
import { trajectoryFixture, voteFixture } from "@/prisma/factories";
import { call, errorOf } from "@/test/api";

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n");
const FILE = jsonl([
  trajectoryFixture({ id: "api-1", benchmark: "api", model: "m", task: { id: "o__r-1" } }),
  trajectoryFixture({ id: "api-2", benchmark: "api", model: "m", task: { id: "o__r-2" } }),
  trajectoryFixture({ id: "api-3", benchmark: "api", model: "m", task: { id: "o__r-3" } }),
  ...["j1", "j2", "j3"].map((j) => voteFixture("api-2", j, { LOCAL_GIT: "ATTEMPTED" })),
]);

let importer: string;
let reader: string;

/** A token of both scopes made while its person was a researcher, who now has `role`. */
async function demotedToken(handle: string, role: "REVIEWER" | "ANNOTATOR"): Promise<string> {
  await db().user.update({ where: { handle }, data: { role: "RESEARCHER" } });
  const { token } = await createToken("system", handle, { scopes: ["read", "import"] });
  await db().user.update({ where: { handle }, data: { role } });
  return token;
}

describe("the HTTP API's routes", () => {
  it("gives a researcher a token that imports and a reviewer one that reads", async () => {
    for (const [handle, role] of [
      ["api-res", "RESEARCHER"],
      ["api-rev", "REVIEWER"],
    ] as const)
      await createPerson("system", { handle, email: `${handle}@example.org`, role, password: "password-1" });
    importer = (await createToken("system", "api-res", { scopes: ["read", "import"] })).token;
    // A reviewer may not import: a token with that scope is refused, naming the field.
    await expect(createToken("system", "api-rev", { scopes: ["read", "import"] })).rejects.toMatchObject({
      code: "BAD_INPUT",
      field: "scopes",
      message: "a reviewer may not import: the import scope is for researchers' tokens",
    });
    // One made while its person was a researcher, who is a reviewer now: the role decides at each request.
    reader = await demotedToken("api-rev", "REVIEWER");
  });

  it("imports a file sent as the body: 200 with its summary, and again changes nothing", async () => {
    const push = () =>
      call(importPost, "/api/v1/imports?name=api.jsonl", { method: "POST", token: importer, body: FILE });
    const r = await push();
    expect(r.status).toBe(200);
    const summary = (await r.json()) as { ok: boolean; counts: Record<string, number>; file: string };
    expect(summary).toMatchObject({ ok: true, file: "api.jsonl" });
    expect(summary.counts).toMatchObject({ trajectories: 3, votes: 3 });
    const row = await db().import.findFirstOrThrow({ where: { fileName: "api.jsonl" }, orderBy: { id: "desc" } });
    expect(row.source).toBe("api");
    expect((await push()).status).toBe(200);
    expect(await db().trajectory.count({ where: { benchmark: { name: "api" } } })).toBe(3);
  });

  it("refuses a bad file whole with 422, naming its line; a reviewer's token may not import (403)", async () => {
    const bad = `${JSON.stringify(trajectoryFixture({ id: "api-9", benchmark: "api-bad" }))}\n{"type": "trajectory"}`;
    const r = await call(importPost, "/api/v1/imports?name=bad.jsonl", { method: "POST", token: importer, body: bad });
    expect(r.status).toBe(422);
    const body = (await r.json()) as { ok: boolean; errors: Array<{ line: number }> };
    expect(body.ok).toBe(false);
    expect(body.errors[0]!.line).toBe(2);
    expect(await db().trajectory.count({ where: { benchmark: { name: "api-bad" } } })).toBe(0);
    const reviewer = await call(importPost, "/api/v1/imports", { method: "POST", token: reader, body: FILE });
    expect(reviewer.status).toBe(403);
    expect((await errorOf(reviewer)).message).toBe("reviewer may not imports write");
    // An empty body, and a condition the importer cannot take: 400, never a 500.
    const empty = await call(importPost, "/api/v1/imports?name=empty.jsonl", {
      method: "POST",
      token: importer,
      body: "",
    });
    expect(empty.status).toBe(400);
    // Listed on the Import page all the same, with the reason.
    expect(await db().import.findFirst({ where: { fileName: "empty.jsonl" }, orderBy: { id: "desc" } })).toMatchObject({
      status: "FAILED",
      source: "api",
      errors: [{ message: "the body is empty: send the file as the request's body; nothing was imported" }],
    });
    const run = await call(importPost, "/api/v1/imports?run=zero", { method: "POST", token: importer, body: FILE });
    expect(run.status).toBe(400);
    expect((await errorOf(run)).message).toMatch(/run/);
  });

  it("asks to come back later (503, Retry-After) while imports hold the memory and enough wait", async () => {
    const budget = workBudget();
    const held = budget.tryReserve(budget.total)!;
    const waiting = [];
    while (!budget.full) waiting.push(budget.await(1));
    const busy = await call(importPost, "/api/v1/imports?name=x.jsonl", {
      method: "POST",
      token: importer,
      body: FILE,
    });
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("30");
    expect(await errorOf(busy)).toMatchObject({ code: "BUSY" });
    held.release();
    for (const w of await Promise.all(waiting)) w.release();
  });

  it("pages the list by cursor, with the list's filters", async () => {
    const page = async (query: string) => {
      const r = await call(listGet, `/api/v1/trajectories?${query}`, { token: reader });
      expect(r.status).toBe(200);
      return (await r.json()) as { items: Array<{ id: number; task: string; votes: number }>; next: number | null };
    };
    const first = await page("benchmark=api&limit=2");
    expect(first.items.map((t) => t.task)).toEqual(["o__r-1", "o__r-2"]);
    expect(first.next).toBe(first.items[1]!.id);
    const second = await page(`benchmark=api&limit=2&after=${first.next}`);
    expect(second.items.map((t) => t.task)).toEqual(["o__r-3"]);
    expect(second.next).toBeNull();
    // The panel's local-git verdict on api-2 (three votes, attempted).
    const judged = await page("benchmark=api&category=LOCAL_GIT&categoryVerdict=attempt");
    expect(judged.items.map((t) => [t.task, t.votes])).toEqual([["o__r-2", 3]]);
    for (const bad of ["limit=0", "limit=501", "after=-1", "run=x%00"])
      expect((await call(listGet, `/api/v1/trajectories?${bad}`, { token: reader })).status).toBe(400);
    // A rule being tried is for those who write rules.
    expect((await call(listGet, "/api/v1/trajectories?tryOn=command&tryPattern=ls", { token: reader })).status).toBe(
      403,
    );
  });

  it("answers one trajectory as the export writes it, with its votes; 404 for none", async () => {
    const id = (await db().trajectory.findFirstOrThrow({ where: { externalId: "api-2" } })).id;
    const r = await call(trajectoryGet, `/api/v1/trajectories/${id}`, { token: reader, id: String(id) });
    expect(r.status).toBe(200);
    const body = (await r.json()) as {
      trajectory: { type: string; id: string; benchmark: string };
      votes: Array<{ judge: string; verdicts: Record<string, string> }>;
      labels: unknown[];
      gold: unknown[];
      evidence: unknown;
    };
    expect(body.trajectory).toMatchObject({ type: "trajectory", id: "api-2", benchmark: "api" });
    expect(body.votes.map((v) => [v.judge, v.verdicts.LOCAL_GIT])).toEqual([
      ["j1", "ATTEMPTED"],
      ["j2", "ATTEMPTED"],
      ["j3", "ATTEMPTED"],
    ]);
    expect([body.labels, body.gold, body.evidence]).toEqual([[], [], null]);
    for (const bad of ["999999", "abc", "-1"])
      expect((await call(trajectoryGet, `/api/v1/trajectories/${bad}`, { token: reader, id: bad })).status).toBe(404);
  });

  it("tries a saved rule by name, or a pattern (researchers only), as `rules test` prints it", async () => {
    // Every fixture trajectory runs `git log --all --oneline` at step 1 (the built-in git-log-all-refs);
    // the panel judged only api-2, attempted in local git: one trajectory rated, both positive.
    const saved = await call(rulesTestGet, "/api/v1/rules/test?name=git-log-all-refs&benchmark=api", {
      token: reader,
    });
    expect(saved.status).toBe(200);
    const body = (await saved.json()) as {
      rule: Record<string, unknown>;
      conditions: Array<{ trajectories: number; trajectories_hit: number; steps_hit: number }>;
      versus_panel: Record<string, number>;
    };
    expect(body.rule).toMatchObject({ name: "git-log-all-refs", category: "LOCAL_GIT", on: "command" });
    expect(body.conditions.map((c) => [c.trajectories, c.trajectories_hit, c.steps_hit])).toEqual([[3, 3, 3]]);
    expect(body.versus_panel).toMatchObject({ n: 1, both: 1, rule_only: 0, panel_only: 0, neither: 0 });
    const pattern = "/api/v1/rules/test?pattern=9f3e2d1&on=output&category=LOCAL_GIT&benchmark=api&format=csv";
    expect((await call(rulesTestGet, pattern, { token: reader })).status).toBe(403);
    const csv = await call(rulesTestGet, pattern, { token: importer });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0]).toBe("benchmark,model,network,prompt,trajectories,trajectories_hit,steps_hit");
    expect(lines.slice(1).map((l) => l.split(",").slice(-3).join(","))).toEqual(["3,3,3"]);
    expect((await call(rulesTestGet, "/api/v1/rules/test?name=nobody", { token: reader })).status).toBe(404);
    const on = await call(rulesTestGet, "/api/v1/rules/test?pattern=x&on=elsewhere&category=OTHER", {
      token: importer,
    });
    expect(on.status).toBe(400);
    const broken = await call(rulesTestGet, "/api/v1/rules/test?pattern=(&on=command&category=OTHER", {
      token: importer,
    });
    expect(broken.status).toBe(400);
    expect((await errorOf(broken)).message).toMatch(/^pattern: /);
  });

  it("answers each route by its token's person's role (both scopes each): the permission matrix", async () => {
    await createPerson("system", {
      handle: "api-ann",
      email: "api-ann@example.org",
      role: "ANNOTATOR",
      password: "password-1",
    });
    const annotator = await demotedToken("api-ann", "ANNOTATOR");
    const id = String((await db().trajectory.findFirstOrThrow({ where: { externalId: "api-1" } })).id);
    const routes: Array<[string, () => (token: string) => Promise<Response>, [number, number, number]]> = [
      ["results", () => (t) => call(resultsGet, "/api/v1/results", { token: t }), [200, 200, 403]],
      ["agreement", () => (t) => call(agreementGet, "/api/v1/agreement", { token: t }), [200, 200, 403]],
      ["evidence", () => (t) => call(evidenceGet, "/api/v1/evidence", { token: t }), [200, 200, 403]],
      ["list", () => (t) => call(listGet, "/api/v1/trajectories?benchmark=api", { token: t }), [200, 200, 403]],
      ["trajectory", () => (t) => call(trajectoryGet, `/api/v1/trajectories/${id}`, { token: t, id }), [200, 200, 403]],
      [
        "rule test",
        () => (t) => call(rulesTestGet, "/api/v1/rules/test?name=git-reflog&benchmark=api", { token: t }),
        [200, 200, 403],
      ],
      [
        "import",
        () => (t) => call(importPost, "/api/v1/imports?name=m.jsonl", { method: "POST", token: t, body: FILE }),
        [200, 403, 403],
      ],
    ];
    for (const [what, route, expected] of routes) {
      const got = [];
      for (const token of [importer, reader, annotator]) got.push((await route()(token)).status);
      expect([what, ...got]).toEqual([what, ...expected]);
    }
  });

  it("says what it answers: unknown parameters, ids out of range, unknown panels refused as described", async () => {
    // The monitors' table as `agreement --table monitors` prints it; another table name is a 400.
    const monitors = await call(agreementGet, "/api/v1/agreement?format=csv&table=monitors", { token: importer });
    expect((await monitors.text()).split("\n")[0]).toMatch(/^monitor,kind,prompt_version,category,n,positives,auroc,/);
    const table = await call(agreementGet, "/api/v1/agreement?table=kappa", { token: importer });
    expect(table.status).toBe(400);
    const unknown = await call(resultsGet, "/api/v1/results?format=csv&colour=red", { token: importer });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toMatch(/colour/);
    // A cursor past the database's integers: 400, never a 500.
    const past = await call(listGet, "/api/v1/trajectories?after=2147483648", { token: importer });
    expect(past.status).toBe(400);
    expect((await errorOf(past)).message).toMatch(/after/);
    // A panel that does not exist: 404, as docs/api.md says of every name.
    const panel = await call(rulesTestGet, "/api/v1/rules/test?name=git-reflog&panel=nobody", { token: importer });
    expect(panel.status).toBe(404);
    expect(await errorOf(panel)).toEqual({ code: "NOT_FOUND", message: 'no panel named "nobody"' });
    // A reviewer's figures under another panel would hold imports back while computed: refused.
    const held = await call(rulesTestGet, "/api/v1/rules/test?name=git-reflog&panel=initial", { token: reader });
    expect([held.status, (await errorOf(held)).message]).toEqual([
      403,
      expect.stringMatching(/^figures under another/),
    ]);
  });
});
