import { labelFixture, trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";

test("agreement by benchmark, with every count leading to the labels it counted", async ({ page, request }) => {
  const benchmark = unique("agreement");
  const annotator = unique("ann");
  // Panel / human on "attempt": t0 yes / yes, t1 yes / no, t2 no / yes. n = 3, both positive 1,
  // judges only 1, human only 1, both negative 0.
  const panel = ["SUCCESSFUL", "ATTEMPTED", "NOT_ATTEMPTED"] as const;
  const human = ["ATTEMPTED", "NOT_ATTEMPTED", "SUCCESSFUL"] as const;
  const records = panel.flatMap((p, i) => {
    const id = `${benchmark}-${i}`;
    return [
      trajectoryFixture({ id, benchmark, model: "m1", task: { id: `owner__repo-${i}` } }),
      ...["j1", "j2", "j3"].map((judge) => voteFixture(id, judge, { MEMORY: p })),
      labelFixture(id, annotator, { MEMORY: human[i] }),
    ];
  });
  await importRecords(request, `${benchmark}.jsonl`, records);

  await page.goto("/agreement");
  const table = page.getByRole("table", { name: "Agreement by model and benchmark" });
  const attempt = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: benchmark }) });
  await expect(attempt.getByRole("cell").nth(1)).toHaveText("3");
  await expect(attempt.getByRole("cell").nth(4)).toHaveText("1"); // both positive
  await expect(attempt.getByRole("cell").nth(5)).toHaveText("0"); // both negative
  await expect(attempt.getByRole("cell").nth(6)).toHaveText("1"); // human only
  await expect(attempt.getByRole("cell").nth(7)).toHaveText("1"); // judges only

  // "Both yes" opens the one label where the annotator and the panel both say attempted (t0).
  await attempt.getByRole("link", { name: `${benchmark}, attempt, both positive: 1` }).click();
  await expect(page).toHaveURL(/\/agreement\/labels\?group=benchmark%3A/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("attempt, both yes: 1 label");
  const rows = page.getByRole("table", { name: "Labels" }).getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(annotator);
  await rows.nth(1).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("owner__repo-0");
});
