// The importer's new formats and its warnings, as a researcher meets them on the Import page: real
// files (test/fixtures.ts, realFixture) uploaded through the form.
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { realFixture } from "../test/fixtures";
import { expect, test, unique } from "./fixtures";

const GRUCKION = "mini-swe-agent/gruckion__gemini-3-pro__astropy__astropy-13033.traj.json";

async function fillCondition(page: Page, benchmark: string, run?: string) {
  await page.getByLabel("Benchmark").fill(benchmark);
  await page.getByLabel("Model").fill("gemini-3-pro");
  if (run) await page.getByLabel("Run", { exact: true }).fill(run);
  await page.getByLabel("Network").selectOption("off");
  await page.getByLabel("Prompt").selectOption("vanilla");
}

async function upload(page: Page, relative: string) {
  await page.getByLabel("Files to import").setInputFiles({
    name: relative.split("/").pop()!,
    mimeType: "application/octet-stream",
    buffer: fs.readFileSync(realFixture(relative)),
  });
  await page.getByRole("button", { name: "Import 1 file" }).click();
}

test("an import says how many turns and tool calls it read, and where an action may have been missed", async ({
  page,
}) => {
  const benchmark = unique("e2e-formats");
  await page.goto("/import");
  await fillCondition(page, benchmark, "1");
  await upload(page, GRUCKION);
  const item = page.getByRole("list", { name: "This session's imports" }).getByRole("listitem").first();
  await expect(item.getByRole("status")).toContainText("imported 1 trajectory (0 replaced)");
  await expect(item).toContainText("read 32 assistant turns, 31 tool calls");
  await expect(item).toContainText("1 warning(s): an action may have been missed");
  await expect(item).toContainText(
    "record 1: astropy__astropy-13033 (run 1), step 27: the assistant's text holds a fenced code block (```python) " +
      "but no tool call was read from it",
  );

  await page.reload();
  const row = page
    .getByRole("table", { name: "Past imports" })
    .getByRole("row")
    .filter({ hasText: "gruckion" })
    .first();
  await expect(row).toContainText("32 turns31 tool calls");
  await row.getByText("1 warning(s)").click();
  await expect(row).toContainText("step 27: the assistant's text holds a fenced code block");

  // Strict: the same file is refused whole for its warning.
  await fillCondition(page, benchmark, "2");
  await page.getByLabel("Strict: reject a file with any warning").check();
  await upload(page, GRUCKION);
  const refused = page.getByRole("list", { name: "This session's imports" }).getByRole("alert");
  await expect(refused).toContainText("rejected: 1 bad record(s), nothing imported");
  await expect(refused).toContainText("record 1: --strict: astropy__astropy-13033 (run 2), step 27:");
});

test("an Inspect .eval log imports one trajectory per sample epoch", async ({ page }) => {
  await page.goto("/import");
  await fillCondition(page, unique("e2e-inspect"));
  await upload(page, "inspect/metr-inspect-action__small.eval");
  const item = page.getByRole("list", { name: "This session's imports" }).getByRole("listitem").first();
  await expect(item.getByRole("status")).toContainText("imported 6 trajectories (0 replaced)", { timeout: 30_000 });
  await expect(item).toContainText("read 76 assistant turns, 70 tool calls");
});
