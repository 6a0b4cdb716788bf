// A researcher labelling in a blind study stays blind elsewhere: while their label is pending, the
// trajectory's page says it is withheld (its HTML holds no judge), the list leaves it out and says
// so, the study's setting lets it open, and giving the label opens it.
import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";
import { e2eAccount } from "./roles";
import { drawStudyOfOne } from "./studies";

const RATIONALE = "A reason a labeller with a pending blind label must not read";

test("a pending blind label withholds the trajectory elsewhere until it is given", async ({ page, request }) => {
  const benchmark = unique("elsewhere");
  const studyName = unique("elsewhere-study");
  const researcher = e2eAccount("RESEARCHER").handle;
  await importRecords(request, `${benchmark}.jsonl`, [
    trajectoryFixture({ id: `${benchmark}-0`, benchmark, task: { id: "owner__repo-2" } }),
    ...["j1", "j2", "j3"].map((j) => voteFixture(`${benchmark}-0`, j, {}, { rationale: RATIONALE })),
  ]);
  await page.goto(`/trajectories?benchmark=${benchmark}`);
  await page.getByRole("table", { name: "Trajectories" }).getByRole("row").nth(1).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/trajectories\/\d+$/);
  const timeline = new URL(page.url()).pathname;

  // A blind study of that trajectory for the researcher; blind elsewhere is on by default.
  await page.goto("/studies/new");
  await expect(page.getByRole("checkbox", { name: /^Blind/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /and elsewhere/ })).toBeChecked();
  await drawStudyOfOne(page, { name: studyName, benchmark, labellers: [researcher], blind: true });
  await expect(page.getByRole("row").filter({ hasText: studyName })).toContainText("yes, and elsewhere");

  const withheld = async () => {
    const response = await page.goto(timeline);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Withheld until you have labelled it");
    expect(await response!.text()).not.toContain(RATIONALE);
  };
  await withheld();
  await page.goto(`/trajectories?benchmark=${benchmark}`);
  await expect(page.getByRole("status")).toHaveText("0 trajectories");
  await expect(page.getByText(/not shown to you here or anywhere else/)).toBeVisible();

  // The study's setting lets it open, and withholds it again.
  await page.goto("/studies");
  await page.getByRole("button", { name: `Allow elsewhere: ${studyName}` }).click();
  await expect(page.getByRole("row").filter({ hasText: studyName })).toContainText("yes, in the queue only");
  await page.goto(timeline);
  await expect(page.getByText(RATIONALE).first()).toBeVisible();
  await page.goto("/studies");
  await page.getByRole("button", { name: `Withhold elsewhere: ${studyName}` }).click();
  await expect(page.getByRole("row").filter({ hasText: studyName })).toContainText("yes, and elsewhere");
  await withheld();

  // Labelled from the queue the page links to: the trajectory opens.
  await page.getByRole("link", { name: "Label it in your queue" }).click();
  await expect(page.getByText(/item 1 of 1/)).toBeVisible();
  await page.locator("body").click();
  for (const key of ["n", "n", "n", "n"]) await page.keyboard.press(key);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/queue$/);
  await page.goto(timeline);
  await expect(page.getByText(RATIONALE).first()).toBeVisible();
});
