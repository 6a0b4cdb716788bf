// Every table's rows are on the page: a long one shows its first rows and a button in sight that
// shows the rest, none hides rows behind a box's own height, and a frozen report (read and printed
// whole) shows every row. Read on the demo study, which every e2e server loads.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { atEachWidth, cutByABox } from "./layout";

/** Opens every folded table of the page and answers how many it opened. */
async function openFolds(page: Page): Promise<number> {
  const buttons = page.getByRole("button", { name: /^Show all \d+ rows \(\d+ more\)$/ });
  const n = await buttons.count();
  for (let i = 0; i < n; i++) await buttons.first().click();
  return n;
}

/** The last row of a table is on the page, in the viewport once the page (not a box) scrolls to it. */
async function lastRowShown(page: Page, table: Locator): Promise<void> {
  const last = table.getByRole("row").last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
  expect(await cutByABox(page)).toEqual([]);
}

test("long tables fold with the rest a click away, and no table is cut by a box of its own", async ({ page }, info) => {
  // The demo study's benchmark (every e2e server loads it): its tables' widths are known to fit.
  await page.goto("/results?benchmark=deepswe");
  const judges = page.getByRole("table", { name: /^Per judge, / }).first();
  const fold = page
    .getByRole("region", { name: /^Per judge, / })
    .first()
    .getByRole("button", { name: /^Show all/ });
  await expect(fold).toBeVisible();
  // Every row is on the page (the folded ones hidden until asked): the header's and all the table's.
  const rows = await judges.locator("tr").count();
  const [, all, more] = (await fold.textContent())!.match(/^Show all (\d+) rows \((\d+) more\)$/)!;
  // The header row and 25 rows shown; the rest a click away.
  expect(Number(all) - Number(more)).toBe(25);
  expect(await judges.locator("tr.folded").count()).toBe(Number(more));
  expect(rows).toBe(Number(all) + 1);
  await fold.click();
  await expect(page.getByRole("button", { name: "Show the first 25 rows only" }).first()).toBeVisible();
  expect(await judges.locator("tr.folded").count()).toBe(0);
  await lastRowShown(page, judges);
  // Scrolled to its last row, the table's header row is still in view (below the contents bar).
  // (Its cells: they are what stays, the row element keeps its place in the table.)
  const header = judges.getByRole("columnheader").first();
  await expect(header).toBeInViewport();
  const bar = await page.locator(".contents-bar").boundingBox();
  expect((await header.boundingBox())!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height - 1);
  expect(await atEachWidth(page, info, "results-whole")).toEqual({ "1440": [], "390": [] });

  await page.goto("/agreement");
  await openFolds(page);
  await lastRowShown(page, page.locator("table#agreement-gold-table"));
  expect(await atEachWidth(page, info, "agreement-whole")).toEqual({ "1440": [], "390": [] });

  // Two panels compared: every condition's row on the page.
  await page.goto("/judges/compare?panel=initial");
  await openFolds(page);
  await lastRowShown(page, page.locator("table#panels"));

  // A review item: every label and every judge beside its timeline, none cut.
  await page.goto("/review");
  const item = page.getByRole("table", { name: "Disagreements" }).getByRole("link").first();
  if (await item.count()) {
    await item.click();
    await expect(page.getByRole("heading", { name: "The annotators' labels" })).toBeVisible();
    expect(await cutByABox(page)).toEqual([]);
  }

  // A timeline: the judges and the context beside it, whole.
  await page.goto("/trajectories");
  await page.locator('table a[href^="/trajectories/"]').first().click();
  await expect(page.getByRole("complementary", { name: "Judges and context" })).toBeVisible();
  expect(await cutByABox(page)).toEqual([]);
});

test("a frozen report shows every row of every table, on the page and in print", async ({ page }) => {
  await page.goto("/reports");
  await page.getByRole("table").getByRole("row").nth(1).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Report: /);
  await expect(page.getByRole("button", { name: /^Show all \d+ rows/ })).toHaveCount(0);
  await expect(page.locator("tr.folded")).toHaveCount(0);
  await page.emulateMedia({ media: "print" });
  expect(await cutByABox(page)).toEqual([]);
  // Its headers say what they count, in print too.
  await expect(page.getByRole("columnheader", { name: "Resolved with exploit %" }).first()).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Resolved %" })).toHaveCount(0);
});
