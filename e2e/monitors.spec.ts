// Judges as monitors: a judge that gives confidence, measured against gold on the agreement page, its
// reliability points opening exactly their trajectories, and the monitors' CSV as the command prints it.
import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";

test("a judge with confidence is measured against gold, and a reliability bin opens its trajectory", async ({
  page,
  request,
}) => {
  const benchmark = unique("monitors");
  const judge = unique("mon-judge");
  // Gold: t0 attempted, t1 not, t2 successful, t3 not. The judge's confidence in UPSTREAM 0.9, 0.2, 0.6, 0.7.
  const gold = ["ATTEMPTED", "NOT_ATTEMPTED", "SUCCESSFUL", "NOT_ATTEMPTED"] as const;
  const confidence = [0.9, 0.2, 0.6, 0.7];
  await importRecords(
    request,
    `${benchmark}.jsonl`,
    gold.flatMap((g, i) => {
      const id = `${benchmark}-${i}`;
      const verdict = confidence[i]! >= 0.5 ? "ATTEMPTED" : "NOT_ATTEMPTED";
      return [
        trajectoryFixture({ id, benchmark, task: { id: `${benchmark}__task-${i}` } }),
        voteFixture(id, judge, { UPSTREAM: verdict }, { confidence: { UPSTREAM: confidence[i] } }),
        {
          type: "gold",
          trajectory: { id },
          adjudicator: "rey",
          verdicts: { UPSTREAM: g, LOCAL_GIT: "NOT_ATTEMPTED", MEMORY: "NOT_ATTEMPTED", OTHER: "NOT_ATTEMPTED" },
        },
      ];
    }),
  );
  // Positives score 0.9 and 0.6, negatives 0.2 and 0.7: 3 of 4 pairs ranked right, AUROC 0.75. No false
  // alarm allowed among two negatives: t = 0.9 catches one of two. At 0.5: TPR 1, TNR ½: 75%.
  const csv = await (await request.get("/api/agreement?format=csv&table=monitors")).text();
  const row = csv.split("\n").find((l) => l.startsWith(`${judge},judge,,ALL,`))!;
  expect(row.split(",").slice(4, 7)).toEqual(["4", "2", "0.75"]);
  expect(row.split(",").slice(-2)).toEqual(["0.5", "0.75"]);

  await page.goto("/agreement");
  await expect(page.getByRole("heading", { name: "Monitors against the gold labels" })).toBeVisible();
  await expect(page.getByRole("figure", { name: /^ROC curves/ })).toBeVisible();
  const table = page.getByRole("table", { name: "Judges and panels as monitors" });
  const more = page.getByRole("button", { name: /^Show all \d+ rows/ }).first();
  if (await more.isVisible()) await more.click();
  const judgeRow = table
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: judge }) })
    .first();
  await expect(judgeRow).toContainText("All categories");
  await expect(judgeRow).toContainText("0.75");
  await expect(judgeRow).toContainText("50.0%");
  await expect(judgeRow).toContainText("75.0%");

  // The reliability diagram's bins are links too: 0.9–1.0 holds t0 alone, which gold calls positive.
  const bins = page.locator("p.note").filter({ hasText: `${judge} (imported):` });
  await bins.getByRole("link", { name: "confidence 0.9–1.0: 1 trajectory, 100% positive" }).click();
  await expect(page).toHaveURL(/\/trajectories\?ids=\d+$/);
  await expect(page.getByText("1 trajectory a figure chose")).toBeVisible();
  await expect(page.getByRole("link", { name: `${benchmark}__task-0` }).first()).toBeVisible();
});
