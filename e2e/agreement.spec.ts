import { expect, test } from "./fixtures";

test("agreement by condition, with every count leading to its trajectories", async ({ page, request }) => {
  const report = (await (await request.get("/api/agreement?format=json")).json()) as {
    overall: { attempt: { n: number; both_positive: number } };
  };
  await page.goto("/agreement");
  await expect(page.getByRole("heading", { name: "Agreement", level: 1 })).toBeVisible();
  const table = page.getByRole("table", { name: "Agreement by condition" });
  const overall = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "all labels" }) });
  await expect(overall.getByRole("cell").nth(1)).toHaveText(String(report.overall.attempt.n));
  expect(report.overall.attempt.n).toBeGreaterThan(0);

  // The "both yes" count of the attempt question opens trajectories where a label and the panel both say attempted.
  await overall.getByRole("link", { name: /^all labels, attempt, both positive/ }).click();
  await expect(page).toHaveURL(/human=attempt/);
  await expect(page).toHaveURL(/panel=attempt/);
  const shown = Number((await page.getByRole("status").innerText()).split(" ")[0]);
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThanOrEqual(report.overall.attempt.both_positive);
  for (const cell of await page
    .getByRole("table", { name: "Trajectories" })
    .getByRole("row")
    .locator("td:nth-child(9)")
    .all()) {
    await expect(cell).toHaveText(/^(attempted|successful)$/);
  }
});
