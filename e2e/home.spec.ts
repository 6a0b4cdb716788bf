import { DEMO_MODELS, demoData, labelFixture, trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, expectErrors, importRecords, test, unique } from "./fixtures";

// The e2e server loads this demo study into a fresh database, as npm start does.
const demo = demoData();

// The one journey about the demo study: npm start loads it into an empty database. It reads only
// the demo's own benchmarks, which no other journey imports into.
test("npm start loads the demo study: the overview shows what it holds", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  const table = page.getByRole("table", { name: "Trajectories by benchmark and model" });
  for (const model of DEMO_MODELS) {
    const rows = table.getByRole("row").filter({ hasText: model });
    await expect(rows).toHaveCount(2);
    for (const benchmark of new Set(demo.trajectories.map((t) => t.benchmark as string))) {
      const perCell = demo.trajectories.filter((t) => t.model === model && t.benchmark === benchmark).length;
      await expect(rows.filter({ hasText: benchmark }).getByRole("cell").nth(2)).toHaveText(String(perCell));
    }
  }
});

test("the overview counts what a file adds", async ({ page, request }) => {
  const total = (label: string) =>
    page
      .locator("dl[aria-label=Totals] > div")
      .filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }) })
      .getByRole("definition");
  const read = async () => {
    await page.goto("/");
    const n = async (label: string) => Number((await total(label).innerText()).replaceAll(",", ""));
    return {
      trajectories: await n("Trajectories"),
      votes: await n("Judge answers"),
      counted: await n("Counted by the panel in force"),
      unparseable: await n("Unparseable among them"),
      labels: await n("Human labels"),
    };
  };
  const before = await read();
  const benchmark = unique("overview");
  await importRecords(request, `${benchmark}.jsonl`, [
    trajectoryFixture({ id: `${benchmark}-1`, benchmark, model: "m1", task: { id: "owner__repo-1" } }),
    trajectoryFixture({ id: `${benchmark}-2`, benchmark, model: "m1", task: { id: "owner__repo-2" } }),
    trajectoryFixture({ id: `${benchmark}-3`, benchmark, model: "m2", task: { id: "owner__repo-1" } }),
    voteFixture(`${benchmark}-1`, "judge-a"),
    { type: "judge_vote", trajectory: { id: `${benchmark}-2` }, judge: "judge-a", raw: "no verdict in here" },
    labelFixture(`${benchmark}-1`, unique("ann")),
  ]);
  expect(await read()).toEqual({
    trajectories: before.trajectories + 3,
    votes: before.votes + 2,
    // judge-a's votes are imported: it joins the panel while that is the automatic one.
    counted: before.counted + 2,
    unparseable: before.unparseable + 1,
    labels: before.labels + 1,
  });
  const rows = page
    .getByRole("table", { name: "Trajectories by benchmark and model" })
    .getByRole("row")
    .filter({ hasText: benchmark });
  // By the model's own cell: the benchmark's random suffix may hold "m1" or "m2" too.
  const model = (name: string) => rows.filter({ has: page.getByRole("cell", { name, exact: true }) });
  await expect(model("m1").getByRole("cell").nth(2)).toHaveText("2");
  await expect(model("m2").getByRole("cell").nth(2)).toHaveText("1");
});

test("the health endpoint reports the database", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ ok: true });
});

test("pages answer with protective headers, and an unknown trajectory is a 404 page", async ({ request, page }) => {
  expectErrors(/Failed to load resource: the server responded with a status of 404/);
  const res = await request.get("/");
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  expect(res.headers()["x-frame-options"]).toBe("DENY");
  const missing = await page.goto("/trajectories/999999999");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  expect((await page.goto("/trajectories/not-a-number"))?.status()).toBe(404);
});
