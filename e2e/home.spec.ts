import { expect, expectErrors, test } from "./fixtures";
import { demoData, DEMO_MODELS } from "../prisma/factories";

// The e2e server loads exactly this demo study into a fresh database.
const demo = demoData();

test("the home page shows what the demo study holds", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  const totals = page.getByRole("definition");
  const total = (label: string) =>
    page
      .locator("dl[aria-label=Totals] > div")
      .filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }) })
      .getByRole("definition");
  await expect(totals.first()).toBeVisible();
  await expect(total("Trajectories")).toHaveText(String(demo.trajectories.length));
  await expect(total("Judge votes")).toHaveText(String(demo.votes.length));
  const unparseable = demo.votes.filter(
    (v) => !("verdicts" in v) && typeof v.raw === "string" && !v.raw.includes("{"),
  ).length;
  await expect(total("Unparseable judge answers")).toHaveText(String(unparseable));
  await expect(total("Human labels")).toHaveText(String(demo.labels.length));

  const table = page.getByRole("table", { name: "Trajectories by benchmark and model" });
  for (const model of DEMO_MODELS) {
    const rows = table.getByRole("row").filter({ hasText: model });
    await expect(rows).toHaveCount(2);
    const perCell = demo.trajectories.filter((t) => t.model === model && t.benchmark === "deepswe").length;
    await expect(rows.filter({ hasText: "deepswe" }).getByRole("cell").nth(2)).toHaveText(String(perCell));
  }
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
