// How a judge is asked, saved with a prompt version from the Judges page and said in words; the
// defaults are put back after, so the other journeys ask as before.
import { expect, test } from "./fixtures";

test("a researcher saves a prompt version that asks by cohorts, without reasoning, outputs cut", async ({ page }) => {
  await page.goto("/judges");
  const form = page.getByRole("form", { name: "The judge prompt" });
  const save = async () => {
    await form.getByRole("button", { name: "Save as a new version" }).click();
    await expect(form.getByRole("status")).toContainText(/saved as version \d+/);
  };
  const said = page.locator("section[aria-labelledby=prompt] > p").first();
  try {
    await form.getByRole("checkbox", { name: "send the agent's reasoning" }).uncheck();
    await form.getByLabel(/Cut each output to this many characters/).fill("4000");
    await form.getByRole("combobox").selectOption("model");
    await save();
    await page.reload();
    await expect(said).toContainText(
      "It asks without the agent's reasoning; outputs cut to 4,000 characters; the runs of one task by one model " +
        "(every condition) in one request.",
    );
    // The form shows the version in force: what was saved.
    await expect(form.getByRole("checkbox", { name: "send the agent's reasoning" })).not.toBeChecked();
    await expect(form.getByLabel(/Cut each output/)).toHaveValue("4000");
    await expect(form.getByRole("combobox")).toHaveValue("model");
  } finally {
    await page.goto("/judges");
    await form.getByRole("checkbox", { name: "send the agent's reasoning" }).check();
    await form.getByLabel(/Cut each output to this many characters/).fill("");
    await form.getByRole("combobox").selectOption("off");
    await save();
    await page.reload();
    await expect(said).toContainText(
      "It asks with the agent's reasoning; outputs cut only to fit; one trajectory a request.",
    );
  }
});
