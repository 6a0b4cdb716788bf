// The Rules page, as a researcher tunes a detector: a rule written, previewed over the whole study
// (what it would find, where, against the panel and gold), saved, and its mark found on a timeline
// at once; disabled, the mark is gone. A reviewer reads the rules and cannot write one.
import { trajectoryFixture, voteFixture } from "../prisma/factories";
import { expect, importRecords, test, unique } from "./fixtures";
import { stateFile } from "./roles";

test("write a rule, preview it, save it, and find its mark on a timeline", async ({ page, request }) => {
  const benchmark = unique("rules");
  const name = unique("pip-fetch");
  const marker = unique("pkg");
  await importRecords(request, "rules.jsonl", [
    trajectoryFixture({
      id: `${benchmark}-1`,
      benchmark,
      task: { id: `${benchmark}__t-1` },
      turns: [
        { role: "user", content: "Fix the bug" },
        { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "bash", input: "ls" }] },
        { role: "tool", tool_call_id: "c1", content: "setup.py" },
        { role: "assistant", content: "", tool_calls: [{ id: "c2", name: "bash", input: `pip download ${marker}` }] },
        { role: "tool", tool_call_id: "c2", content: "<b>saved</b>" },
        { role: "assistant", content: "done" },
      ],
    }),
    // The panel says it reached upstream.
    ...["j1", "j2", "j3"].map((j) => voteFixture(`${benchmark}-1`, j, { UPSTREAM: "SUCCESSFUL" })),
  ]);

  await page.goto("/rules");
  const form = page.getByRole("form", { name: "Write a rule" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Category").selectOption("UPSTREAM");
  await form.getByLabel(/^Pattern/).fill(String.raw`\ypip\s+download\s+` + marker);
  await form.getByLabel(/^Why/).fill("downloads the package the task is about");
  await form.getByRole("button", { name: "Preview" }).click();

  // What it would find: one trajectory, one step, shown with its match; nothing saved yet.
  const preview = page.getByRole("region", { name: "What it would find" });
  await expect(preview.getByRole("status")).toContainText("it fires on 1, hitting 1 steps");
  await expect(preview.getByRole("table", { name: "the rule tried: by condition" })).toContainText(benchmark);
  // Against the panel, the one trajectory it fires on is a hit the panel agrees with; the count opens it.
  const cells = preview.getByRole("table", { name: "the rule tried: against the panel and the gold labels" });
  const both = cells.getByRole("link", { name: "the rule tried: 1 fired on, panel positive" });
  const bothHref = await both.getAttribute("href");
  const sample = preview.getByRole("listitem").filter({ hasText: `${benchmark}__t-1` });
  await expect(sample.locator("mark")).toHaveText(`pip download ${marker}`);
  await expect(page.getByRole("table", { name: "The rules in force" })).not.toContainText(name);
  const step = await sample.getByRole("link").getAttribute("href");

  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "a new version in force" })).toContainText(name);
  const row = page.getByRole("table", { name: "The rules in force" }).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("1.00 · ");
  // Its own page: what it finds, by condition and against the panel, and its one version so far.
  await row.getByRole("link", { name, exact: true }).click();
  const detail = page.getByRole("region", { name });
  await expect(detail.getByRole("status")).toContainText("It fires on 1 trajectory, hitting 1 step");
  await expect(detail.getByRole("table", { name: `${name}: by condition` })).toContainText(benchmark);
  await expect(detail.getByRole("link", { name: `${name}: 1 fired on, panel positive` })).toBeVisible();
  await expect(detail.getByRole("table", { name: /Its versions \(1,/ }).getByRole("row")).toHaveCount(2);
  // Its commands, by family.
  await detail.getByRole("link", { name: "Families of its commands" }).click();
  await expect(page.getByRole("table", { name: "Families of commands" }).getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("table", { name: "Families of commands" })).toContainText("pip download");
  // The preview's cell, followed: exactly that trajectory, the rule tried named among the filters.
  await page.goto(bothHref!);
  await expect(page.getByRole("status").filter({ hasText: /^\d+ trajector/ })).toHaveText("1 trajectory");
  await expect(page.getByRole("link", { name: `${benchmark}__t-1` })).toBeVisible();
  await expect(page.getByText("the rule being tried")).toBeVisible();
  await page.goto("/rules");
  // Its count opens the trajectories it fires on.
  await row.getByRole("link", { name: `trajectories ${name} fires on` }).click();
  await expect(page.getByRole("link", { name: `${benchmark}__t-1` })).toBeVisible();
  await expect(page.getByText(`the rule ${name} fires on it`)).toBeVisible();

  // Its mark is on the timeline at once, at step 2.
  await page.goto(step!);
  await expect(page.getByRole("list", { name: "Suspect marks of step 2" })).toContainText(
    `${name}: downloads the package the task is about`,
  );

  // Disabled, it marks nothing (the built-in package-download still marks the step).
  await page.goto("/rules");
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row).toContainText("disabled");
  await row.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("table", { name: /Its versions \(2,/ })).toContainText("no");
  await page.goto(`/trajectories?benchmark=${benchmark}`);
  await page.getByRole("link", { name: `${benchmark}__t-1` }).click();
  const marks = page.getByRole("list", { name: "Suspect marks of step 2" });
  await expect(marks).toContainText("package-download");
  await expect(marks).not.toContainText(name);
});

test.describe("as a reviewer", () => {
  test.use({ storageState: stateFile("REVIEWER") });
  test("the rules are read, not written", async ({ page }) => {
    await page.goto("/rules");
    await expect(page.getByRole("table", { name: "The rules in force" })).toContainText("git-reflog");
    await expect(page.getByRole("form", { name: "Write a rule" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Disable" })).toHaveCount(0);
  });
});
