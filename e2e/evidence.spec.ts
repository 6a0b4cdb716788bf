// Evidence from a task record, as a researcher meets it: the timeline's task panel and evidence
// steps (j walks to them, the fix's lines are marked in the output), the list's evidence filter,
// and the results page's evidence table linking to the same trajectories.
import { trajectoryFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";

const FIX_LINE = "        return self.compute_default_for_closed_channel()";
const PATCH = [
  "diff --git a/src/chan.py b/src/chan.py",
  "--- a/src/chan.py",
  "+++ b/src/chan.py",
  "@@ -120,1 +120,1 @@",
  "-        return None",
  `+${FIX_LINE}`,
].join("\n");

const turn = (id: string, input: string, output: string) => [
  { role: "assistant", content: "", tool_calls: [{ id, name: "bash", input }] },
  { role: "tool", tool_call_id: id, content: output, exit_code: 0 },
];

test("a task record's evidence on the timeline, in the list and on the results page", async ({ page, request }) => {
  const benchmark = unique("evidence");
  const task = `${benchmark}__chan-77`;
  await importRecords(request, "evidence.jsonl", [
    {
      type: "task",
      instance_id: task,
      patch: PATCH,
      created_at: "2024-05-20 10:00:00",
      problem_statement: "Closed channels hang.",
    },
    trajectoryFixture({
      id: `${benchmark}-1`,
      benchmark,
      task: { id: task },
      patch: PATCH,
      turns: [
        { role: "user", content: "Fix the hang." },
        ...turn("c1", "ls", "src tests"),
        ...turn("c2", "git log --all --format='%h %cI %s' | head", "9f3e2d1 2024-06-02T11:00:00+00:00 Fix the hang"),
        ...turn("c3", "git show 9f3e2d1", `@@ -120 +120 @@\n-        return None\n+${FIX_LINE}`),
      ],
    }),
  ]);

  await page.goto(`/trajectories?benchmark=${benchmark}&evidence=fix_seen`);
  await expect(page.getByRole("row")).toHaveCount(2);
  const row = page.getByRole("row").nth(1);
  await expect(row).toContainText("future commit, fix seen");
  await expect(row).toContainText("1.00");
  await row.getByRole("link", { name: task }).click();

  const evidence = page.getByRole("region", { name: "Evidence" });
  await expect(evidence).toContainText("step 2: future commit (Local git)");
  await expect(evidence).toContainText("step 3: fix seen: the output shows 1 of the 1 lines the reference patch adds");
  const truth = page.getByRole("region", { name: "The task's ground truth" });
  await expect(truth).toContainText("Issue filed 2024-05-20. Final patch's similarity to the reference: 1.00.");
  await truth.getByText("Issue text").click();
  await expect(truth).toContainText("Closed channels hang.");

  // j walks from the top to the first evidence step, then the next.
  await page.keyboard.press("j");
  await expect(page).toHaveURL(/#step-2$/);
  await page.keyboard.press("j");
  await expect(page).toHaveURL(/#step-3$/);
  await expect(page.locator("#step-3 ~ li mark.fix-line").first()).toHaveText(`+${FIX_LINE}\n`);

  await page.goto(`/results?benchmark=${benchmark}`);
  const table = page.getByRole("table", { name: `Evidence, ${benchmark}` });
  await expect(table.getByRole("row")).toHaveCount(2);
  // One trajectory with a record, with evidence (100%), unjudged.
  await expect(table.getByRole("row").nth(1)).toContainText("1 (100.0%)");
  await table.getByRole("link", { name: "with evidence, model-a, network on, vanilla: 1" }).click();
  await expect(page).toHaveURL(/evidence=any/);
  await expect(page.getByRole("link", { name: task })).toBeVisible();
});
