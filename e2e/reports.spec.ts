// A researcher freezes the results, shares the report by a read-only link; a reader without an
// account opens it and its downloads, and nothing else; revoked, the link answers 404.
import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, expectErrors, importRecords, test, unique } from "./fixtures";
import { atEachWidth } from "./layout";

test("freeze a report, share it read-only, the link opens that report only, revoked it opens nothing", async ({
  page,
  browser,
  request,
}, info) => {
  const benchmark = unique("frozen");
  const name = unique("paper draft");
  await importRecords(request, `${benchmark}.jsonl`, [
    trajectoryFixture({ id: `${benchmark}-0`, benchmark, task: { id: "owner__repo-3" } }),
    ...["j1", "j2", "j3"].map((j) => voteFixture(`${benchmark}-0`, j, { UPSTREAM: "SUCCESSFUL" })),
  ]);
  await page.goto("/reports");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Freeze the results and agreement now" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Report: ${name}`);
  await expect(page.getByRole("table", { name: benchmark, exact: true })).toBeVisible();
  const reportPath = new URL(page.url()).pathname;

  // A read-only link, shown once.
  await page.goto("/reports");
  const row = page.getByRole("row").filter({ hasText: name });
  await row.getByRole("button", { name: "New read-only link" }).click();
  const link = await row.getByRole("textbox", { name: `link to ${name}` }).inputValue();
  expect(link).toMatch(/\/r\/[A-Za-z0-9_-]{43}$/);
  const path = new URL(link).pathname;

  // A reader with no account: the report and its downloads, and nothing else.
  const stranger = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const reader = await stranger.newPage();
  const opened = await reader.goto(path);
  expect(opened!.status()).toBe(200);
  expect(opened!.headers()["set-cookie"]).toBeUndefined();
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(`Report: ${name}`);
  const table = reader.getByRole("table", { name: benchmark, exact: true });
  await expect(table).toContainText("100.0%");
  await expect(table.getByRole("link")).toHaveCount(0);
  expect(await atEachWidth(reader, info, "shared-report")).toEqual({ "1440": [], "390": [] });
  const json = await stranger.request.get(`${path}/download?what=results&format=json`);
  expect(json.status()).toBe(200);
  expect(((await json.json()) as Array<{ benchmark: string }>).some((o) => o.benchmark === benchmark)).toBe(true);
  expect((await stranger.request.get(`${path}/download?what=agreement&format=latex`)).status()).toBe(200);
  // Everything else still asks to sign in: pages, the live figures' APIs, the report's own page.
  for (const other of ["/results", "/trajectories", "/reports", reportPath, "/agreement"]) {
    await reader.goto(other);
    await expect(reader).toHaveURL(/\/sign-in\?next=/);
  }
  for (const api of ["/api/results?format=json", "/api/agreement?format=json", `${reportPath}/download`])
    expect((await stranger.request.get(api, { maxRedirects: 0 })).status()).toBe(401);

  // Revoked: the link and its downloads answer 404.
  await page.goto("/reports");
  await page
    .getByRole("row")
    .filter({ hasText: name })
    .getByRole("button", { name: /^Revoke link/ })
    .click();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("revoked");
  expectErrors(/404/);
  expect((await reader.goto(path))!.status()).toBe(404);
  expect((await stranger.request.get(`${path}/download?what=results&format=json`)).status()).toBe(404);
  await stranger.close();
});
