// Drawing a study of one trajectory through the study form, as the journeys that need one do.
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * A study of the one trajectory of `benchmark` (model-a, network on, vanilla), for `labellers`
 * (handles), each item labelled by all of them. `blind`: left as the form has it (on) or unchecked.
 */
export async function drawStudyOfOne(
  page: Page,
  { name, benchmark, labellers, blind }: { name: string; benchmark: string; labellers: string[]; blind: boolean },
): Promise<void> {
  await page.goto("/studies/new");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Seed").fill(name);
  await page.getByLabel("Items per stratum").fill("0");
  await page.getByLabel(/Annotators per item/).fill(String(labellers.length));
  if (!blind) await page.getByRole("checkbox", { name: /^Blind/ }).uncheck();
  for (const handle of labellers) await page.getByRole("checkbox", { name: new RegExp(handle) }).check();
  await page.getByRole("button", { name: "Preview the draw" }).click();
  await page.getByRole("spinbutton", { name: `size of ${benchmark}|model-a|net|vanilla` }).fill("1");
  await page.getByRole("button", { name: "Preview the draw" }).click();
  await page.getByRole("button", { name: "Save this study (1 items)" }).click();
  await expect(page).toHaveURL(/\/studies\?created=\d+/);
}
