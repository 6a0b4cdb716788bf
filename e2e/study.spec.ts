import type { Browser } from "@playwright/test";
import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";
import { atEachWidth } from "./layout";
import { e2eAccount, stateFile } from "./roles";

// The whole study, as its people do it: a researcher imports three judged trajectories, draws and
// saves a blind study of them for an annotator, who labels two items by keyboard; the agreement
// figures count them.
const RATIONALE = "The judges' reasons, which a blind annotator must not see";

type Report = { overall: { attempt: { n: number } } };
const agreementN = async (request: import("@playwright/test").APIRequestContext) =>
  ((await (await request.get("/api/agreement?format=json")).json()) as Report).overall.attempt.n;

async function asAnnotator(browser: Browser) {
  const context = await browser.newContext({ storageState: stateFile("ANNOTATOR") });
  return { context, page: await context.newPage() };
}

test("create a blind study, label two items by keyboard, see agreement change", async ({
  page,
  browser,
  request,
}, info) => {
  const benchmark = unique("study");
  const studyName = unique("journey-study");
  const labeller = e2eAccount("ANNOTATOR").handle;
  await importRecords(
    request,
    `${benchmark}.jsonl`,
    [0, 1, 2].flatMap((i) => [
      trajectoryFixture({ id: `${benchmark}-${i}`, benchmark, task: { id: `owner__repo-${i}` } }),
      ...["j1", "j2", "j3"].map((j) =>
        voteFixture(`${benchmark}-${i}`, j, { UPSTREAM: "ATTEMPTED" }, { rationale: RATIONALE }),
      ),
    ]),
  );
  const before = await agreementN(request);

  // The researcher previews the draw of this benchmark's stratum alone, then saves it as shown.
  await page.goto("/studies/new");
  await page.getByLabel("Name").fill(studyName);
  await page.getByLabel("Seed").fill("journey");
  await page.getByLabel("Items per stratum").fill("0");
  await page.getByRole("checkbox", { name: new RegExp(labeller) }).check();
  await expect(page.getByRole("checkbox", { name: /^Blind/ })).toBeChecked();
  await page.getByRole("button", { name: "Preview the draw" }).click();
  await page.getByRole("spinbutton", { name: `size of ${benchmark}|model-a|net|vanilla` }).fill("3");
  await page.getByRole("button", { name: "Preview the draw" }).click();
  const n = 3;
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByRole("heading", { name: `Preview: ${n} items, seed “journey”` })).toBeVisible();
  await expect(preview.getByRole("listitem").filter({ hasText: `${labeller}: ${n} items` })).toBeVisible();
  expect(await atEachWidth(page, info, "study-preview")).toEqual({ "1440": [], "390": [] });
  await page.getByRole("button", { name: `Save this study (${n} items)` }).click();
  await expect(page).toHaveURL(/\/studies\?created=\d+/);
  const row = page.getByRole("row").filter({ hasText: studyName });
  await expect(row).toContainText(`${labeller} 0/${n}`);

  // The annotator's queue.
  const { context, page: annotator } = await asAnnotator(browser);
  await annotator.goto("/queue");
  const queueRow = annotator.getByRole("row").filter({ hasText: studyName });
  await expect(queueRow).toContainText(`0 / ${n}`);
  await queueRow.getByRole("link", { name: "Start →" }).click();
  await expect(annotator.getByText(new RegExp(`item 1 of ${n}`))).toBeVisible();

  // Blind: nothing the server sent holds a judge's rationale or the panel, though the researcher sees them.
  const first = Number((await annotator.getByText(/trajectory #\d+/).innerText()).match(/trajectory #(\d+)/)![1]);
  const html = await (await context.request.get(annotator.url())).text();
  const researcherView = await (await request.get(`/trajectories/${first}`)).text();
  expect(researcherView).toContain(RATIONALE.replace("'", "&#x27;"));
  expect(html).not.toContain("which a blind annotator must not see");
  expect(html).not.toContain("panelVerdict");
  await expect(annotator.getByRole("heading", { name: "Judges" })).toHaveCount(0);

  // The form starts with nothing chosen: Enter on an untouched item saves nothing and names what is left.
  await annotator.locator("body").click();
  await expect(annotator.getByRole("radio", { checked: true })).toHaveCount(0);
  await annotator.keyboard.press("a");
  await annotator.keyboard.press("Enter");
  await expect(annotator.getByRole("alert").filter({ hasText: "Choose a verdict" })).toHaveText(
    "Choose a verdict for Local git, Memory, Other (or press 0 if nothing was attempted in any category).",
  );
  await annotator.reload();
  await expect(annotator.getByText(new RegExp(`item 1 of ${n}`))).toBeVisible();
  await expect(annotator.getByRole("radio", { checked: true })).toHaveCount(0);

  // Item 1: upstream attempted, the rest not attempted, step 1 cited, all from the keyboard.
  await annotator.locator("body").click();
  for (const key of ["a", "n", "n", "n"]) await annotator.keyboard.press(key);
  await annotator.keyboard.press("c");
  await annotator.keyboard.type("1");
  await annotator.keyboard.press("Escape");
  await annotator.keyboard.press("Enter");
  await expect(annotator.getByText(new RegExp(`item 2 of ${n}`))).toBeVisible();

  // Item 2: nothing attempted, in one key.
  await annotator.keyboard.press("0");
  await annotator.keyboard.press("Enter");
  await expect(annotator.getByText(new RegExp(`item 3 of ${n}`))).toBeVisible();

  // Back on item 1 (key [ twice): the label as given, and now the judges.
  await annotator.keyboard.press("[");
  await expect(annotator.getByText(new RegExp(`item 2 of ${n}`))).toBeVisible();
  await annotator.keyboard.press("[");
  await expect(annotator.getByText(new RegExp(`item 1 of ${n}`))).toBeVisible();
  const upstream = annotator.getByRole("group", { name: /upstream/i });
  await expect(upstream.getByRole("radio", { name: "attempted", exact: true })).toBeChecked();
  await expect(
    annotator.getByRole("group", { name: /memory/i }).getByRole("radio", { name: "not attempted" }),
  ).toBeChecked();
  await expect(annotator.getByLabel(/Cited steps/)).toHaveValue("1");
  await expect(annotator.getByRole("heading", { name: "Judges" })).toBeVisible();
  await expect(annotator.getByRole("heading", { name: "History of your label" })).toBeVisible();
  // The labelling page, with its judges shown, fits a phone as well as a wide screen.
  expect(await atEachWidth(annotator, info, "labelling")).toEqual({ "1440": [], "390": [] });

  await annotator.goto("/queue");
  await expect(annotator.getByRole("row").filter({ hasText: studyName })).toContainText(`2 / ${n}`);
  await context.close();

  // Both items were judged by the panel, so each label adds one pair to the agreement.
  expect(await agreementN(request)).toBe(before + 2);
  await page.goto("/studies");
  await expect(page.getByRole("row").filter({ hasText: studyName })).toContainText(`${labeller} 2/${n}`);
});
