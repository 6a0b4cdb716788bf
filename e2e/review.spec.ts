// The review journey: two labellers disagree on a trajectory, a reviewer adjudicates it from the
// review queue by keyboard, and the agreement page shows the gold figures.
import type { Browser } from "@playwright/test";
import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";
import { e2eAccount, stateFile } from "./roles";
import { drawStudyOfOne } from "./studies";

async function as(browser: Browser, role: "ANNOTATOR" | "REVIEWER") {
  const context = await browser.newContext({ storageState: stateFile(role) });
  return { context, page: await context.newPage() };
}

test("two labellers disagree, a reviewer adjudicates, the agreement shows the gold figures", async ({
  page,
  browser,
  request,
}) => {
  const benchmark = unique("review");
  const studyName = unique("review-study");
  const annotator = e2eAccount("ANNOTATOR").handle;
  const researcher = e2eAccount("RESEARCHER").handle;
  // One trajectory; the panel says not attempted.
  await importRecords(request, `${benchmark}.jsonl`, [
    trajectoryFixture({ id: `${benchmark}-0`, benchmark, task: { id: "owner__repo-1" } }),
    ...["j1", "j2", "j3"].map((j) => voteFixture(`${benchmark}-0`, j)),
  ]);

  // A study of that one trajectory, labelled by the annotator and the researcher, not blind.
  await drawStudyOfOne(page, { name: studyName, benchmark, labellers: [annotator, researcher], blind: false });

  // The annotator: local git attempted. The researcher: nothing attempted.
  const ann = await as(browser, "ANNOTATOR");
  await ann.page.goto("/queue");
  await ann.page.getByRole("row").filter({ hasText: studyName }).getByRole("link", { name: "Start →" }).click();
  await expect(ann.page.getByText(/item 1 of 1/)).toBeVisible();
  await ann.page.locator("body").click();
  for (const key of ["n", "a", "n", "n"]) await ann.page.keyboard.press(key);
  await ann.page.keyboard.press("Enter");
  await expect(ann.page).toHaveURL(/\/queue$/);
  await ann.context.close();
  await page.goto("/queue");
  await page.getByRole("row").filter({ hasText: studyName }).getByRole("link", { name: "Start →" }).click();
  await expect(page.getByText(/item 1 of 1/)).toBeVisible();
  await page.locator("body").click();
  for (const key of ["n", "n", "n", "n"]) await page.keyboard.press(key);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/queue$/);

  // The reviewer's queue: one even split, no gold label yet; opened, adjudicated by keyboard.
  const rev = await as(browser, "REVIEWER");
  await rev.page.goto(`/review?study=${encodeURIComponent(studyName)}`);
  await expect(rev.page.getByRole("status")).toHaveText("1 to review, 1 without a gold label.");
  const row = rev.page.getByRole("table", { name: "Disagreements" }).getByRole("row").nth(1);
  await expect(row).toContainText("even split");
  await expect(row).toContainText(`${annotator}: attempted`);
  await expect(row).toContainText(`${researcher}: not attempted`);
  await row.getByRole("link").click();
  await expect(rev.page.getByRole("heading", { name: "The annotators' labels" })).toBeVisible();
  await rev.page.locator("body").click();
  // The gold form starts with nothing chosen: Enter saves nothing, and says what is left.
  await rev.page.keyboard.press("Enter");
  await expect(rev.page.getByRole("alert").filter({ hasText: "Choose a verdict" })).toHaveText(
    "Choose a verdict for Upstream, Local git, Memory, Other (or press 0 if nothing was attempted in any category).",
  );
  await expect(rev.page.getByRole("radio", { checked: true })).toHaveCount(0);
  await rev.page.reload();
  await expect(rev.page.getByRole("heading", { name: /Gold label/ })).not.toContainText("(given)");
  await rev.page.locator("body").click();
  // None attempted (0), then local git (2) successful (s).
  await rev.page.keyboard.press("0");
  await rev.page.keyboard.press("2");
  await rev.page.keyboard.press("s");
  await rev.page.keyboard.press("Enter");
  // Nothing else to adjudicate: back on the list, adjudicated.
  await expect(rev.page).toHaveURL(/\/review\?study=/);
  await expect(rev.page.getByRole("status")).toHaveText("1 to review, 0 without a gold label.");
  await expect(rev.page.getByRole("table", { name: "Disagreements" }).getByRole("row").nth(1)).toContainText(
    "successful",
  );

  // The agreement of the study against the gold: panel not attempted, gold successful: on attempt,
  // gold only; the annotator (attempted) agrees on attempt, the researcher does not.
  const report = (await (
    await rev.context.request.get(`/api/agreement?format=json&study=${encodeURIComponent(studyName)}`)
  ).json()) as {
    gold: {
      panel: { attempt: { n: number; human_only: number } };
      annotators: Array<{ annotator: string; attempt: { n: number; both_positive: number; human_only: number } }>;
    };
  };
  expect(report.gold.panel.attempt).toMatchObject({ n: 1, human_only: 1 });
  expect(report.gold.annotators.find((a) => a.annotator === annotator)!.attempt).toMatchObject({
    n: 1,
    both_positive: 1,
  });
  expect(report.gold.annotators.find((a) => a.annotator === researcher)!.attempt).toMatchObject({
    n: 1,
    human_only: 1,
  });
  await rev.page.goto(`/agreement?study=${encodeURIComponent(studyName)}`);
  const gold = rev.page.getByRole("table", { name: "Agreement with the gold labels" });
  await expect(gold).toBeVisible();
  await expect(
    gold
      .getByRole("row")
      .filter({ hasText: `annotator ${annotator}` })
      .first(),
  ).toContainText("100.0%");
  await rev.context.close();
});
