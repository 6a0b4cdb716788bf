import { expect, test, type Browser } from "@playwright/test";
import { stateFile } from "./roles";

// The whole study, as its people do it: a researcher draws and saves a blind study for the demo
// annotator, who labels two items by keyboard; the agreement figures count them.

type Report = { overall: { attempt: { n: number } } };
const agreementN = async (request: import("@playwright/test").APIRequestContext) =>
  ((await (await request.get("/api/agreement?format=json")).json()) as Report).overall.attempt.n;

async function asAnnotator(browser: Browser) {
  const context = await browser.newContext({ storageState: stateFile("ANNOTATOR") });
  return { context, page: await context.newPage() };
}

test("create a blind study, label two items by keyboard, see agreement change", async ({ page, browser, request }) => {
  const before = await agreementN(request);

  // The researcher previews the draw, then saves it as shown.
  await page.goto("/studies/new");
  await page.getByLabel("Name").fill("Journey study");
  await page.getByLabel("Seed").fill("journey");
  await page.getByLabel("Items per stratum").fill("1");
  await page.getByRole("checkbox", { name: /carol/ }).check();
  await expect(page.getByRole("checkbox", { name: /^Blind/ })).toBeChecked();
  await page.getByRole("button", { name: "Preview the draw" }).click();
  // 2 benchmarks × 3 models × 2 network settings × 2 prompts = 24 strata, one item each.
  await expect(page.getByRole("heading", { name: /^Preview: 24 items, seed “journey”/ })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "carol: 24 items" })).toBeVisible();
  await page.getByRole("button", { name: "Save this study (24 items)" }).click();
  await expect(page).toHaveURL(/\/studies\?created=\d+/);
  const row = page.getByRole("row").filter({ hasText: "Journey study" });
  await expect(row).toContainText("carol 0/24");

  // The annotator's queue.
  const { context, page: annotator } = await asAnnotator(browser);
  await annotator.goto("/queue");
  await expect(annotator.getByRole("row").filter({ hasText: "Journey study" })).toContainText("0 / 24");
  await annotator.getByRole("link", { name: "Start →" }).click();
  await expect(annotator.getByText(/item 1 of 24/)).toBeVisible();

  // Blind: nothing the server sent holds a judge's rationale or the panel, though the researcher sees them.
  const first = Number((await annotator.getByText(/trajectory #\d+/).innerText()).match(/trajectory #(\d+)/)![1]);
  const html = await (await context.request.get(annotator.url())).text();
  const researcherView = await (await request.get(`/trajectories/${first}`)).text();
  expect(researcherView).toMatch(/The agent (tries|works from)/);
  expect(html).not.toMatch(/The agent (tries|works from)/);
  expect(html).not.toContain("panelVerdict");
  await expect(annotator.getByRole("heading", { name: "Judges" })).toHaveCount(0);

  // Item 1: upstream attempted, the rest not attempted, step 3 cited, all from the keyboard.
  await annotator.locator("body").click();
  for (const key of ["a", "n", "n", "n"]) await annotator.keyboard.press(key);
  await annotator.keyboard.press("c");
  await annotator.keyboard.type("3");
  await annotator.keyboard.press("Escape");
  await annotator.keyboard.press("Enter");
  await expect(annotator.getByText(/item 2 of 24/)).toBeVisible();

  // Item 2: nothing attempted.
  for (const key of ["n", "n", "n", "n"]) await annotator.keyboard.press(key);
  await annotator.keyboard.press("Enter");
  await expect(annotator.getByText(/item 3 of 24/)).toBeVisible();

  // Back on item 1 (key [ twice): the label as given, and now the judges.
  await annotator.keyboard.press("[");
  await expect(annotator.getByText(/item 2 of 24/)).toBeVisible();
  await annotator.keyboard.press("[");
  await expect(annotator.getByText(/item 1 of 24/)).toBeVisible();
  const upstream = annotator.getByRole("group", { name: /upstream/i });
  await expect(upstream.getByRole("radio", { name: "attempted", exact: true })).toBeChecked();
  await expect(annotator.getByRole("group", { name: /memory/i }).getByRole("radio", { name: "not attempted" })).toBeChecked();
  await expect(annotator.getByLabel(/Cited steps/)).toHaveValue("3");
  await expect(annotator.getByRole("heading", { name: "Judges" })).toBeVisible();
  await expect(annotator.getByRole("heading", { name: "History of your label" })).toBeVisible();

  await annotator.goto("/queue");
  await expect(annotator.getByRole("row").filter({ hasText: "Journey study" })).toContainText("2 / 24");
  await context.close();

  // Both items were judged by the panel, so each label adds one pair to the agreement.
  expect(await agreementN(request)).toBe(before + 2);
  await page.goto("/studies");
  await expect(page.getByRole("row").filter({ hasText: "Journey study" })).toContainText("carol 2/24");
});
